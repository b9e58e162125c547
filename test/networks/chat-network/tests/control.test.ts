import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatNetwork, type ChatNetwork } from '../index.js';
import { connectClient, memoryAuth, trustNetwork, type TestClient } from '../control/test-client.js';
import { phoneNumbers } from './linked-device.js';

let network: ChatNetwork;
const newPhone = phoneNumbers('1557');

interface Envelope {
  success: boolean;
  data?: unknown;
  error?: { code: string; message: string };
}

async function call(method: string, path: string, body?: unknown, raw?: string): Promise<{ status: number; body: Envelope }> {
  const response = await fetch(`${network.controlUrl}${path}`, {
    method,
    headers: body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {},
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return { status: response.status, body: (await response.json()) as Envelope };
}

beforeAll(async () => {
  network = await startChatNetwork();
  trustNetwork(network);
});

afterAll(async () => {
  await network?.close();
});

describe('control API', () => {
  let client: TestClient;
  let phone: string;

  afterAll(async () => {
    await client?.end();
  });

  it('plays the phone: scan, send, read what the device sent (media as base64), receipts, revoke, devices, stats', async () => {
    phone = newPhone();
    const peer = newPhone();
    const auth = memoryAuth();
    const registering = connectClient(network, auth);
    const { qr } = await registering.waitFor('connection.update', (update) => !!update.qr);
    expect(await call('POST', '/control/scan', { qr, phone: `+${phone}` })).toMatchObject({ status: 200, body: { success: true } });
    expect(await registering.closed).toBe(515);
    client = connectClient(network, auth);
    await client.waitFor('connection.update', (update) => update.connection === 'open');

    const sent = await call('POST', `/control/phones/${peer}/messages`, { to: phone, text: 'hi from curl', pushName: 'Curl' });
    expect(sent.status).toBe(201);
    const id = (sent.body.data as { id: string }).id;
    const upsert = await client.waitFor('messages.upsert', (update) => update.messages.some((message) => message.key.id === id));
    expect(upsert.messages[0]!.message?.conversation).toBe('hi from curl');

    const file = randomBytes(3000);
    const out = await client.sock.sendMessage(`${peer}@s.whatsapp.net`, { document: file, mimetype: 'text/plain', fileName: 'a.txt' });
    await network.waitForInbox(peer, 1);
    const inbox = await call('GET', `/control/phones/${peer}/messages`);
    expect(inbox.status).toBe(200);
    expect(inbox.body.data).toMatchObject([
      {
        id: out!.key.id,
        from: phone,
        type: 'document',
        fileName: 'a.txt',
        media: { size: 3000, sha256: createHash('sha256').update(file).digest('hex'), base64: file.toString('base64') },
      },
    ]);

    expect((await call('POST', `/control/phones/${peer}/receipts`, { messageId: out!.key.id, type: 'read' })).status).toBe(200);
    await client.until(() => client.statusOf(out!.key.id!) >= 4);

    const revoked = await call('POST', `/control/phones/${peer}/revoke`, { messageId: id, to: phone });
    expect(revoked.status).toBe(200);
    await client.waitFor('messages.update', (updates) => updates.some((item) => item.key.id === id && item.update.message === null));

    const devices = await call('GET', '/control/devices');
    expect(devices.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ phone, deviceId: 1, connected: true, loggedOut: false })]));
    const stats = await call('GET', '/control/stats');
    expect(stats.body.data).toMatchObject({ connections: expect.any(Number), logins: expect.any(Number) });
    expect((await call('GET', `/control/phones/${phone}/lid`)).body.data).toEqual({ lid: network.lidOf(phone) });

    expect(await call('POST', `/control/devices/${phone}/stream-error`, { code: 503 })).toMatchObject({ status: 200, body: { data: { ended: 1 } } });
    expect(await client.closed).toBe(503);
  });

  it('plays groups, presence, profiles and LID mappings', async () => {
    const owner = newPhone();
    const auth = memoryAuth();
    const registering = connectClient(network, auth);
    const { qr } = await registering.waitFor('connection.update', (update) => !!update.qr);
    const member = newPhone();
    await call('POST', '/control/scan', { qr, phone: member });
    await registering.closed;
    const device = connectClient(network, auth);
    await device.waitFor('connection.update', (update) => update.connection === 'open');
    try {
      const created = await call('POST', '/control/groups', { owner, subject: 'By curl', participants: [member] });
      expect(created.status).toBe(201);
      const group = (created.body.data as { jid: string }).jid;
      await device.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));
      expect((await call('POST', `/control/groups/${group}/subject`, { actor: owner, subject: 'Renamed' })).body.data).toMatchObject({ subject: 'Renamed' });
      expect((await call('POST', `/control/groups/${group}/description`, { actor: owner, description: 'hi' })).status).toBe(200);
      const third = newPhone();
      const participants = await call('POST', `/control/groups/${group}/participants`, { actor: owner, add: [third] });
      expect((participants.body.data as { participants: unknown[] }).participants).toHaveLength(3);
      expect((await call('GET', `/control/groups/${group}`)).body.data).toMatchObject({ jid: group, creator: owner });
      const sent = await call('POST', `/control/phones/${owner}/messages`, { to: group, text: 'to the group' });
      const id = (sent.body.data as { id: string }).id;
      const upsert = await device.waitFor('messages.upsert', (update) => update.messages.some((message) => message.key.id === id && !!message.message));
      expect(upsert.messages.find((message) => message.key.id === id)!.key.remoteJid).toBe(group);

      expect((await call('POST', `/control/phones/${owner}/presence`, { to: member, type: 'composing' })).status).toBe(200);
      await device.waitFor('presence.update', (update) => update.id === `${owner}@s.whatsapp.net`);
      await device.sock.sendPresenceUpdate('composing', `${owner}@s.whatsapp.net`);
      await network.waitFor(() => network.chatStates(owner).length);
      expect((await call('GET', `/control/phones/${owner}/presence`)).body.data).toMatchObject({ chatStates: [{ from: member, state: 'composing' }] });

      const picture = randomBytes(10).toString('base64');
      expect((await call('POST', `/control/phones/${owner}/profile`, { pushName: 'Owner', picture })).status).toBe(200);
      await device.waitFor('contacts.update', (updates) => updates.some((update) => update.imgUrl === 'changed'));
      expect((await call('GET', `/control/phones/${owner}/profile`)).body.data).toEqual({ name: 'Owner', about: '', picture, privacy: expect.objectContaining({ last: 'all', profile: 'all' }) });
      // The member's phone shares its app-state key with its one linked device.
      expect((await call('POST', `/control/phones/${member}/app-state-key`)).body.data).toEqual({ devices: 1 });
      const stranger = newPhone();
      await call('POST', `/control/phones/${stranger}/messages`, { to: member, text: 'who?', asLid: true });
      expect((await call('POST', `/control/phones/${member}/lid-mapping`, { contacts: [stranger] })).status).toBe(200);

      const media = await call('POST', `/control/phones/${owner}/messages`, {
        to: member,
        image: { data: randomBytes(100).toString('base64'), mimetype: 'image/jpeg', caption: 'pic' },
      });
      const mediaId = (media.body.data as { id: string }).id;
      expect((await call('POST', `/control/phones/${owner}/media-expiry`, { messageId: mediaId })).status).toBe(200);
    } finally {
      await device.end();
    }
  });

  it.each([
    ['a group without subject', 'POST', '/control/groups', { owner: '15550000001', participants: [] }, undefined, 400, 'validation_error'],
    ['an unknown group', 'GET', '/control/groups/1203630000@g.us', undefined, undefined, 404, 'unknown_group'],
    ['a group change by a stranger', 'POST', '/control/groups/1203630000@g.us/subject', { actor: '15550000001', subject: 'x' }, undefined, 404, 'unknown_group'],
    ['participants without a change', 'POST', '/control/groups/1203630000@g.us/participants', { actor: '15550000001' }, undefined, 400, 'validation_error'],
    ['a message to an unknown group', 'POST', '/control/phones/15550000001/messages', { to: '1203630000@g.us', text: 'a' }, undefined, 404, 'unknown_group'],
    ['an unknown presence', 'POST', '/control/phones/15550000001/presence', { to: '15550000002', type: 'asleep' }, undefined, 400, 'validation_error'],
    ['a profile change without a change', 'POST', '/control/phones/15550000001/profile', {}, undefined, 400, 'validation_error'],
    ['a LID mapping without contacts', 'POST', '/control/phones/15550000001/lid-mapping', { contacts: [] }, undefined, 400, 'validation_error'],
    ['the expiry of media never sent', 'POST', '/control/phones/15550000001/media-expiry', { messageId: 'X' }, undefined, 404, 'unknown_media'],
  ] as const)('answers %s with a %i… envelope', async (_, method, path, body, raw, status, code) => {
    expect(await call(method, path, body, raw)).toMatchObject({ status, body: { success: false, error: { code } } });
  });

  it.each([
    ['invalid JSON', 'POST', '/control/scan', undefined, '{nope', 400, 'invalid_json'],
    ['missing fields', 'POST', '/control/scan', {}, undefined, 400, 'validation_error'],
    ['an unknown QR', 'POST', '/control/scan', { qr: 'https://wa.me/settings/linked_devices#2@x,a,b,c,1', phone: '15550000001' }, undefined, 404, 'unknown_qr'],
    ['text that is no QR', 'POST', '/control/scan', { qr: 'hello', phone: '15550000001' }, undefined, 400, 'invalid_qr'],
    ['a bad phone', 'POST', '/control/scan', { qr: 'https://wa.me/settings/linked_devices#2@x,a,b,c,1', phone: 'abc' }, undefined, 400, 'invalid_phone'],
    ['a malformed pairing code', 'POST', '/control/pair', { code: '12', phone: '15550000001' }, undefined, 400, 'invalid_pairing_code'],
    ['no content', 'POST', '/control/phones/15550000001/messages', { to: '15550000002' }, undefined, 400, 'validation_error'],
    ['two contents', 'POST', '/control/phones/15550000001/messages', { to: '15550000002', text: 'a', location: { latitude: 1, longitude: 2 } }, undefined, 400, 'validation_error'],
    ['a latitude off the globe', 'POST', '/control/phones/15550000001/messages', { to: '15550000002', location: { latitude: 91, longitude: 2 } }, undefined, 400, 'validation_error'],
    ['a bad sender', 'POST', '/control/phones/12/messages', { to: '15550000002', text: 'a' }, undefined, 400, 'invalid_phone'],
    ['a reaction to nothing', 'POST', '/control/phones/15550000001/messages', { to: '15550000002', reaction: { messageId: 'X', emoji: '👍' } }, undefined, 404, 'unknown_message'],
    ['a reply to nothing', 'POST', '/control/phones/15550000001/messages', { to: '15550000002', text: 'a', quoted: 'X' }, undefined, 404, 'unknown_message'],
    ['a receipt for nothing', 'POST', '/control/phones/15550000001/receipts', { messageId: 'X', type: 'read' }, undefined, 404, 'unknown_message'],
    ['a receipt of an unknown type', 'POST', '/control/phones/15550000001/receipts', { messageId: 'X', type: 'seen' }, undefined, 400, 'validation_error'],
    ['a revoke of nothing', 'POST', '/control/phones/15550000001/revoke', { messageId: 'X', to: '15550000002' }, undefined, 404, 'unknown_message'],
    ['an unknown stream error code', 'POST', '/control/devices/15550000001/stream-error', { code: 499 }, undefined, 400, 'validation_error'],
    ['a stream error for a phone without devices', 'POST', '/control/devices/15559999999/stream-error', { code: 515 }, undefined, 404, 'unknown_phone'],
    ['a broken escape in the path', 'GET', '/control/phones/%E0%A4%A/messages', undefined, undefined, 400, 'invalid_path'],
    ['an unknown route', 'GET', '/control/nothing', undefined, undefined, 404, 'not_found'],
    ['a wrong method', 'DELETE', '/control/stats', undefined, undefined, 404, 'not_found'],
  ] as const)('answers %s with a %i… envelope, never a 500', async (_, method, path, body, raw, status, code) => {
    const response = await call(method, path, body, raw);
    expect(response).toMatchObject({ status, body: { success: false, error: { code } } });
  });
});

describe('command line', () => {
  it('starts the network and prints what a gateway is started with', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chat-network-cli-'));
    const caFile = join(dir, 'ca.pem');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/networks/chat-network/control/cli.ts', '--port', '0', '--ca-file', caFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no output from the CLI: ${output}`)), 25_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/curl[\s\S]*curl/.test(output)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${output}`)));
      });
      const url = /^CHAT_NETWORK_URL=(ws:\/\/127\.0\.0\.1:\d+\/ws\/chat)$/m.exec(output)?.[1];
      const rootKey = /^CHAT_NETWORK_ROOT_KEY=(\S+)$/m.exec(output)?.[1];
      expect(url).toBeDefined();
      expect(Buffer.from(rootKey!, 'base64')).toHaveLength(32);
      expect(output).toContain(`CHAT_NETWORK_CA_FILE=${caFile}`);
      expect(readFileSync(caFile, 'utf8')).toContain('BEGIN CERTIFICATE');
      const controlUrl = /Control API: (http:\/\/\S+)\/control/.exec(output)?.[1];
      const stats = await fetch(`${controlUrl}/control/stats`);
      expect(await stats.json()).toMatchObject({ success: true, data: { connections: 0 } });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('closes cleanly: a process that starts a network, takes a connection and closes it, exits by itself', async () => {
    const script = `
      import { WebSocket } from 'ws';
      const { startChatNetwork } = await import(${JSON.stringify(join(process.cwd(), 'test/networks/chat-network/index.ts'))});
      const network = await startChatNetwork();
      const ws = new WebSocket(network.url);
      ws.on('error', () => {});
      await new Promise((resolve) => ws.once('open', resolve));
      await fetch(network.controlUrl + '/control/stats');
      await network.close();
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve, reject) => {
      // Generous: on a loaded machine loading the client library under tsx alone takes seconds.
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the process did not exit: something was left open'));
      }, 50_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code).toBe(0);
  }, 60_000);
});
