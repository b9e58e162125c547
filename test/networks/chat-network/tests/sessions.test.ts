import {
  Curve,
  DEFAULT_CONNECTION_CONFIG,
  generateRegistrationNode,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  initAuthCreds,
  makeNoiseHandler,
  NOISE_WA_HEADER,
  proto,
  type BinaryNode,
} from 'baileys';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startChatNetwork, type ChatNetwork, type StreamErrorCode } from '../index.js';
import { connectClient, memoryAuth, pairByQr, recordingLogger, trustNetwork, type TestClient } from '../control/test-client.js';
import { phoneNumbers } from './linked-device.js';

let network: ChatNetwork;
const newPhone = phoneNumbers('1556');

const opened = (client: TestClient) => client.waitFor('connection.update', (update) => update.connection === 'open');

beforeAll(async () => {
  network = await startChatNetwork();
  trustNetwork(network);
});

afterAll(async () => {
  await network?.close();
});

describe('pairing by code', () => {
  it('links with the code the client displayed, typed with or without its dash; a wrong code does not pair', async () => {
    const phone = newPhone();
    const auth = memoryAuth();
    const log = recordingLogger('warn');
    const client = connectClient(network, auth, { logger: log.logger });
    await client.waitFor('connection.update', (update) => !!update.qr);
    const code = await client.sock.requestPairingCode(phone);
    expect(code).toMatch(/^[0-9A-Z]{8}$/);
    const wrong = [...code].map((char) => (char === 'A' ? 'B' : 'A')).join('');
    await expect(network.enterPairingCode(wrong, phone)).rejects.toMatchObject({ status: 400, code: 'pairing_code_mismatch' });
    expect(network.devices().filter((device) => device.phone === phone)).toEqual([]);

    await network.enterPairingCode(`${code.slice(0, 4)}-${code.slice(4).toLowerCase()}`, `+${phone}`);
    expect(await client.closed).toBe(515);
    const session = connectClient(network, auth, { logger: log.logger });
    await opened(session);
    expect(session.sock.user?.id).toBe(`${phone}:1@s.whatsapp.net`);
    expect(network.devices().filter((device) => device.phone === phone)).toMatchObject([{ deviceId: 1, connected: true }]);
    await session.end();
    expect(log.errors().filter((record) => record.msg !== 'stream errored out')).toEqual([]);
  });

  it('refuses codes nobody asked for and malformed ones', async () => {
    await expect(network.enterPairingCode('ABCD-EFGH', newPhone())).rejects.toMatchObject({ status: 404, code: 'pairing_not_requested' });
    await expect(network.enterPairingCode('ABC', newPhone())).rejects.toMatchObject({ status: 400, code: 'invalid_pairing_code' });
    await expect(network.enterPairingCode('ABCD-EFGH', 'not a phone')).rejects.toMatchObject({ status: 400, code: 'invalid_phone' });
  });
});

describe('pairing by QR', () => {
  it('refuses QR texts that are no live code: unknown refs, malformed text, a code already used', async () => {
    const phone = newPhone();
    await expect(network.scan('https://wa.me/settings/linked_devices#2@nope,AAAA,BBBB,CCCC,1', phone)).rejects.toMatchObject({
      status: 404,
      code: 'unknown_qr',
    });
    await expect(network.scan('hello', phone)).rejects.toMatchObject({ status: 400, code: 'invalid_qr' });
    const auth = memoryAuth();
    const client = connectClient(network, auth);
    const { qr } = await client.waitFor('connection.update', (update) => !!update.qr);
    await network.scan(qr!, phone);
    expect(await client.closed).toBe(515);
    await expect(network.scan(qr!, phone)).rejects.toMatchObject({ status: 404 });
  });

  it('takes only the ref the client shows now: an earlier, rotated one is refused', async () => {
    const short = await startChatNetwork({ qrTimeoutMs: 1_500 });
    try {
      const client = connectClient(short, memoryAuth(), { qrTimeout: 1_500 });
      const codes: string[] = [];
      await client.until(() => {
        codes.splice(0, codes.length, ...client.events.flatMap((event) => ((event.data as { qr?: string }).qr ? [(event.data as { qr: string }).qr] : [])));
        return codes.length >= 3;
      }, 20_000, 'three QR codes');
      const phone = newPhone();
      await expect(short.scan(codes[0]!, phone)).rejects.toMatchObject({ status: 400, code: 'qr_expired' });
      await short.scan(codes[2]!, phone);
      expect(await client.closed).toBe(515);
    } finally {
      await short.close();
    }
  });

  it('ends the registration when the refs run out, as the client expects', async () => {
    const few = await startChatNetwork({ qrRefs: 2, qrTimeoutMs: 400 });
    try {
      const client = connectClient(few, memoryAuth(), { qrTimeout: 400 });
      expect(await client.closed).toBe(408);
      expect(client.events.filter((event) => (event.data as { qr?: string }).qr)).toHaveLength(2);
    } finally {
      await few.close();
    }
  });
});

describe('sessions', () => {
  let phone: string;
  let auth: ReturnType<typeof memoryAuth>;

  beforeAll(async () => {
    phone = newPhone();
    const client = await pairByQr(network, phone);
    auth = client.auth;
    await client.end();
  });

  it.each([515, 408, 500, 503, 428, 440] as StreamErrorCode[])('stream error %i reaches the client as exactly that status code', async (code) => {
    const client = connectClient(network, auth);
    await opened(client);
    await network.waitFor(() => network.devices().find((device) => device.phone === phone)?.connected);
    expect(network.streamError(phone, code)).toBe(1);
    expect(await client.closed).toBe(code);
    await network.waitFor(() => !network.devices().find((device) => device.phone === phone)?.connected);
  });

  it('a second connection of the same device replaces the first (440 to the older one)', async () => {
    const first = connectClient(network, auth);
    await opened(first);
    const second = connectClient(network, memoryAuth(auth.snapshot()));
    await opened(second);
    expect(await first.closed).toBe(440);
    expect(network.devices().find((device) => device.phone === phone)).toMatchObject({ connected: true });
    await second.end();
  });

  it('401: the phone removed the device; it is logged out now and at every later login', async () => {
    const removed = newPhone();
    const client = await pairByQr(network, removed);
    network.streamError(removed, 401);
    expect(await client.closed).toBe(401);
    expect(network.devices().find((device) => device.phone === removed)).toMatchObject({ loggedOut: true, connected: false });
    const attempts = network.loginAttempts(removed).length;
    const again = connectClient(network, client.auth);
    expect(await again.closed).toBe(401);
    expect(network.loginAttempts(removed)).toHaveLength(attempts + 1);
  });

  it('403: the account is banned; every later login of its devices fails with 403 until the ban is lifted', async () => {
    const banned = newPhone();
    const client = await pairByQr(network, banned);
    network.streamError(banned, 403);
    expect(await client.closed).toBe(403);
    const again = connectClient(network, client.auth);
    expect(await again.closed).toBe(403);
    await expect(network.scan('https://wa.me/settings/linked_devices#x,y,z,w,1', banned)).rejects.toMatchObject({ status: 404 });
    network.unban(banned);
    const back = connectClient(network, client.auth);
    await opened(back);
    await back.end();
  });

  it('refuses stream errors for unknown phones or devices and unknown codes', () => {
    expect(() => network.streamError(newPhone(), 515)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => network.streamError(phone, 515, { deviceId: 9 })).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => network.streamError(phone, 499 as StreamErrorCode)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

/** One set of client keys for all bare clients: making keys costs the client, not the server, CPU. */
const sharedCreds = initAuthCreds();

/** A bare client: the Noise handshake and a registration payload, nothing else (what a QR screen costs). */
async function register(url: string): Promise<{ refs: number; ws: WebSocket }> {
  const creds = sharedCreds;
  const ephemeral = Curve.generateKeyPair();
  const noise = makeNoiseHandler({ keyPair: ephemeral, NOISE_HEADER: NOISE_WA_HEADER, logger: pino({ level: 'silent' }) });
  const ws = new WebSocket(url);
  const frames: (Uint8Array | BinaryNode)[] = [];
  let wake = () => {};
  ws.on('message', (data: Buffer) => {
    void noise.decodeFrame(data, (frame) => {
      frames.push(frame);
      wake();
    });
  });
  const next = () =>
    new Promise<Uint8Array | BinaryNode>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no frame from the server')), 20_000);
      const take = () => {
        const frame = frames.shift();
        if (!frame) return;
        clearTimeout(timer);
        resolve(frame);
      };
      wake = take;
      take();
    });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(noise.encodeFrame(proto.HandshakeMessage.encode({ clientHello: { ephemeral: ephemeral.public } }).finish()));
  const hello = proto.HandshakeMessage.decode((await next()) as Uint8Array);
  const keyEnc = noise.processHandshake(hello, creds.noiseKey);
  const payload = generateRegistrationNode(creds, DEFAULT_CONNECTION_CONFIG);
  const finish = { clientFinish: { static: keyEnc, payload: noise.encrypt(proto.ClientPayload.encode(payload).finish()) } };
  ws.send(noise.encodeFrame(proto.HandshakeMessage.encode(finish).finish()));
  await noise.finishInit();
  const pairDevice = (await next()) as BinaryNode;
  return { refs: getBinaryNodeChildren(getBinaryNodeChild(pairDevice, 'pair-device'), 'ref').length, ws };
}

describe('capacity', () => {
  it('holds hundreds of handshakes at once', async () => {
    const before = network.stats();
    const clients = await Promise.all(Array.from({ length: 200 }, () => register(network.url)));
    try {
      expect(clients.every((client) => client.refs === 6)).toBe(true);
      const during = network.stats();
      expect(during.connections).toBe(before.connections + 200);
      expect(during.maxHandshakesInFlight).toBeGreaterThan(1);
      expect(during.handshakesInFlight).toBe(0);
    } finally {
      for (const client of clients) client.ws.close();
    }
    await network.waitFor(() => network.stats().connections === before.connections, 20_000, 'the connections to close');
  });
});
