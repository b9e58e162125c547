import { randomBytes } from 'node:crypto';
import type { Server as HttpServer, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone, pairedV1 } from '../../../../factories/chat-network.js';
import { eventually } from '../../../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../../../kit/gateway.js';
import { type Client, client } from '../../../../helpers/http.js';
import { MODES } from '../../../../kit/modes.js';
import { type ChatNetwork, startChatNetwork } from '../../../../networks/chat-network/index.js';
import { baileysWorld } from '../../../../kit/worlds/baileys.js';

// What a sender, or a server posing as the network, controls is never trusted: a received file's host,
// its bytes before they verified, its declared length; a link in an outgoing text; a certificate chain
// that does not bind to the server showing it.

const embedded = MODES.find((mode) => mode.database === 'pglite')!;

/** A local server that counts every connection made to it (and answers each request with a secret). */
async function listening<T extends HttpServer | HttpsServer>(server: T) {
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
const secretPage = (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<html><head><title>internal</title><meta property="og:title" content="internal secret"></head><body>secret</body></html>');
};

describe('CHAT-BAILEYS: what a sender or a server controls is not trusted', () => {
  // Loopback is allowed (the local network's media host is there): only the network's own hosts may be asked.
  const world = baileysWorld(embedded);
  let v1: { id: string; phone: string };
  let internal: Awaited<ReturnType<typeof listening<HttpsServer>>>;

  beforeAll(async () => {
    v1 = await pairedV1(world.api, world.tenant.liveKey, world.network, `untrusted ${Date.now()}`);
    const hooked = await world.api.post(`/v1/chat/instances/${v1.id}/webhook`, { key: world.tenant.liveKey, body: { url: `${world.receiver.url}/v1` } });
    expect(hooked.status, hooked.text).toBe(200);
    // An internal HTTPS service the gateway would trust: its certificate comes from the same test CA as the media host's.
    internal = await listening(createHttpsServer(world.network.mediaTls, secretPage));
  }, 90_000);
  afterAll(() => internal?.close());

  /** The id the gateway gave the message a phone sent, once its upsert webhook came. */
  const received = (from: string) =>
    eventually(
      async () => world.receiver.of('messages.upsert').map((call) => JSON.parse(call.body)).filter((hook) => hook.instanceId === v1.id && hook.data.from === from),
      (list) => list.length === 1,
      20_000,
    ).then((list) => list[0].data.messageId as string);
  const download = (messageId: string) => fetch(`${world.gw.url}/v1/messages/${messageId}/media`, { headers: { authorization: `Bearer ${world.tenant.liveKey}` } });
  const image = () => ({ mimetype: 'image/png', bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(40_000)]) });

  it.each([
    ['a URL on another host beside a direct path of its own', (port: number) => ({ url: `https://127.0.0.1:${port}/internal/secret?mms3=true`, directPath: '/internal/secret' }), 410, 'media_expired'],
    ['a URL on another host and no direct path', (port: number) => ({ url: `https://127.0.0.1:${port}/internal/secret`, directPath: null }), 502, 'media_invalid'],
    ['a direct path that names another host', (port: number) => ({ directPath: `@127.0.0.1:${port}/internal/secret` }), 502, 'media_invalid'],
    ['a direct path that starts a new authority', (port: number) => ({ directPath: `//127.0.0.1:${port}/internal/secret` }), 502, 'media_invalid'],
  ] as const)('a received image whose descriptor names another server (%s): the download never connects there and streams nothing', async (_case, forged, status, code) => {
    const contact = newNetworkPhone().slice(1);
    await world.network.send(contact, v1.phone, { image: { ...image(), forged: forged(internal.port) } });
    const messageId = await received(contact);
    const before = internal.connections();
    const answer = await download(messageId);
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toMatchObject({ success: false, error: { code } });
    expect(internal.connections()).toBe(before);
  });

  it('a file that does not match its MAC and hashes: 502 media_invalid in the envelope, and not one byte of it', async () => {
    const contact = newNetworkPhone().slice(1);
    const file = image();
    await world.network.send(contact, v1.phone, { image: { ...file, corrupt: true } });
    const answer = await download(await received(contact));
    expect(answer.status).toBe(502);
    const body = Buffer.from(await answer.arrayBuffer());
    expect(JSON.parse(body.toString('utf8'))).toEqual({ success: false, error: { code: 'media_invalid', message: expect.stringMatching(/cannot be trusted/) } });
    expect(body.includes(file.bytes.subarray(0, 64))).toBe(false);
  });

  it("Content-Length is the verified file's size, not the length the sender declared", async () => {
    const contact = newNetworkPhone().slice(1);
    const file = image();
    await world.network.send(contact, v1.phone, { image: { ...file, forged: { fileLength: file.bytes.length + 4096 } } });
    const answer = await download(await received(contact));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe(String(file.bytes.length));
    expect(Buffer.from(await answer.arrayBuffer()).equals(file.bytes)).toBe(true);
  });

  it('an outgoing text with a link: the phone gets the text, and nothing asked for the link to build a preview', async () => {
    // The library previews https links on a name with a top-level domain, through the global fetch of
    // the process the engine runs in (this one): every call is seen here, whether or not the name resolves.
    const asked: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      asked.push(String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      const to = newNetworkPhone().slice(1);
      const text = 'the report is at https://intranet.example/report?id=7';
      const sent = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to, text } });
      expect(sent.status, sent.text).toBe(200);
      // The library builds a preview before it hands the message over: once the phone has it, any fetch happened.
      const [message] = await world.network.waitForInbox(to, 1);
      expect(message!.text).toBe(text);
      expect(message!.message.extendedTextMessage?.matchedText ?? null).toBeNull();
      expect(asked.filter((url) => url.includes('intranet.example'))).toEqual([]);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe.each([
  ['a leaf that names another key than the server holds', 'leaf-names-another-key'],
  ['a leaf whose issuer serial is not its intermediate', 'leaf-wrong-issuer-serial'],
] as const)('CHAT-BAILEYS: a server whose signed certificate chain has %s', (_what, flaw) => {
  let network: ChatNetwork;
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;

  beforeAll(async () => {
    network = await startChatNetwork({ certificateFlaw: flaw });
    gw = await startTestGateway(embedded, { env: baileysEnv(network, embedded, { LOG_LEVEL: 'warn' }) });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await network?.close();
  });

  it('is refused in the handshake, again on each retry: no QR code, no pairing, the reason shown and logged', async () => {
    const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: `refused ${flaw}` } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.qrCode ?? null).toBeNull();
    const id = created.body.data.id as string;
    // Two handshakes begun (the first and a retry after the backoff), neither finished by the client.
    await network.waitFor(() => network.stats().hellos >= 2, 20_000, 'two handshakes');
    expect(network.stats().handshakesFinished).toBe(0);
    expect(network.devices()).toEqual([]);
    const detail = await eventually(() => api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey }), (r) => r.body.data.lastDisconnect?.reason === 'untrusted_network', 15_000);
    expect(detail.body.data.status).not.toBe('connected');
    expect(gw.logs.lines.some((line) => line.includes('failed the network certificate checks') && line.includes('leaf certificate'))).toBe(true);
  });
});
