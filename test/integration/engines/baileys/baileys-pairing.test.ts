import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { createKey, createTenant, login, type TestTenant } from '../../../factories/tenants.js';
import { distEntry, startChildGateway } from '../../../kit/process.js';
import { startTestGateway, type TestGateway } from '../../../kit/gateway.js';
import { type Client, client } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { createTestDatabase } from '../../../kit/postgres.js';
import { seedPgliteDataDir } from '../../../kit/templates.js';
import { type ChatNetwork, ChatNetworkError, startChatNetwork } from '../../../networks/chat-network/index.js';
import { decodeQr } from '../../../../src/infra/qr-decode.js';

/**
 * How long one step of a pairing (codes running out, a scan, connected) may take. Conditions are
 * waited for: a quiet machine takes seconds, a loaded one stretches the link's crypto and round trips.
 */
const PAIRING_STEP_MS = 60_000;
const PAIRING_TEST_MS = 150_000;

describe.each(MODES)('CHAT-BAILEYS pairing driven by the network — $name', (mode) => {
  let network: ChatNetwork;
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;

  beforeAll(async () => {
    // Short codes, three per pairing, as long on both sides (the network takes each ref as long as the
    // client shows it): what the network sends is what the gateway shows.
    network = await startChatNetwork({ qrRefs: 3, qrTimeoutMs: 2000 });
    gw = await startTestGateway(mode, { env: baileysEnv(network, mode, { CHAT_QR_TIMEOUT_S: '2' }) });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await network?.close();
  });

  const qrEvents = async (instanceId: string) =>
    (await gw.gateway.infra.db.prisma.outboxEvent.findMany({ where: { instanceId, event: 'qr.update' }, orderBy: { seq: 'asc' } })).map(
      (e) => e.data as { qrCode: string; expiresAt: string; attemptId: string },
    );

  /**
   * The phone scans the code the instance shows when it scans, as a person does: on a busy machine
   * the client may have moved on to the next code of the pairing since the test last looked.
   */
  const scanShown = (id: string, phone: string) =>
    eventually(
      async () => {
        const shown = await api.get(`/chat/instances/${id}`, { cookie: tenant.cookie });
        if (shown.body.data.status !== 'qr') return `status ${shown.body.data.status}`;
        return network.scan(decodeQr(shown.body.data.qrCode.base64), phone).then(
          () => 'scanned',
          (error: unknown) => {
            if (error instanceof ChatNetworkError && error.code === 'qr_expired') return 'the client moved on';
            throw error;
          },
        );
      },
      (outcome) => outcome === 'scanned',
      PAIRING_STEP_MS,
    );

  it('shows each code the network sends, and once they run out the instance is disconnected with no code; regenerate-qr starts over', { timeout: PAIRING_TEST_MS }, async () => {
    const created = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: `rotating ${Date.now()}` } });
    const id = created.body.data.instanceId;
    const ended = await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => r.body.data.status === 'disconnected', PAIRING_STEP_MS);
    expect(ended.body.data.qrCode).toBeUndefined();
    const codes = await qrEvents(id);
    expect(codes).toHaveLength(3);
    const texts = codes.map((event) => decodeQr(event.qrCode));
    expect(new Set(texts).size).toBe(3);
    for (const text of texts) expect(text).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#/);
    const updates = await gw.gateway.infra.db.prisma.outboxEvent.findMany({ where: { instanceId: id, event: 'connection.update' }, orderBy: { seq: 'asc' } });
    expect(updates.map((e) => (e.data as { status: string; reason: string | null }))).toEqual([
      { status: 'qr', phoneNumber: null, reason: null },
      { status: 'disconnected', phoneNumber: null, reason: 'pairing_expired' },
    ]);

    const regenerated = await api.post(`/chat/instances/${id}/regenerate-qr`, { cookie: tenant.cookie });
    expect(regenerated.status, regenerated.text).toBe(200);
    expect(regenerated.body.data.status).toBe('qr');
    const fresh = decodeQr(regenerated.body.data.qrCode.base64);
    expect(texts).not.toContain(fresh);
    await scanShown(id, '+15551230001');
    await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => r.body.data.status === 'connected', PAIRING_STEP_MS);
  });

  it('refuses media URLs outside the URL policy with 400 before the library sees anything: file:, loopback, plain http', { timeout: PAIRING_TEST_MS }, async () => {
    const created = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: `policy ${Date.now()}` } });
    const id = created.body.data.instanceId;
    await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => Boolean(r.body.data.qrCode));
    await scanShown(id, '+15551230003');
    await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => r.body.data.status === 'connected', PAIRING_STEP_MS);
    const before = network.received().length;
    for (const mediaUrl of ['file:///etc/passwd', 'https://127.0.0.1/picture.png', 'https://localhost/picture.png', 'https://[::1]/picture.png', 'http://example.com/picture.png']) {
      const refused = await api.post(`/chat/instances/${id}/send-media`, { cookie: tenant.cookie, body: { to: '15551239999', mediaUrl, mediaType: 'image' } });
      expect(refused.status, mediaUrl).toBe(400);
      expect(refused.body.error.message).toMatch(/^mediaUrl: /);
    }
    expect(network.received()).toHaveLength(before);
    expect(await gw.gateway.infra.db.prisma.message.count({ where: { instanceId: id } })).toBe(0);
  });

  it('v1: GET …/qr after the codes ran out starts a pairing and answers its first code', { timeout: PAIRING_TEST_MS }, async () => {
    const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: `v1 again ${Date.now()}` } });
    const id = created.body.data.id;
    await eventually(() => api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'disconnected', PAIRING_STEP_MS);
    const qr = await api.get(`/v1/chat/instances/${id}/qr`, { key: tenant.liveKey });
    expect(qr.status).toBe(200);
    expect((await api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey })).body.data.status).toBe('qr_code');
    await network.scan(decodeQr(qr.body.data.qrCode), '+15551230002');
    await eventually(() => api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected', PAIRING_STEP_MS);
  });
});

describe('ENGINE_STATE_KEY at start', () => {
  let network: ChatNetwork;
  const cleanups: Array<() => Promise<void> | void> = [];
  beforeAll(async () => {
    network = await startChatNetwork();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await network?.close();
  });

  /** Starts the gateway and answers how it ended: its exit code and what it wrote to stderr. */
  function startFailing(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, distEntry('main'), {
        env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
  }

  it('refuses, once and naming the variable, a key other than the one the state was sealed with, a malformed one, and none with PostgreSQL', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgw-key-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    seedPgliteDataDir(dir);
    const env = { ...baileysEnv(network, { database: 'pglite' }), DATA_DIR: dir };
    // The first start makes the data folder's key and seals the check with it.
    const first = await startChildGateway(env);
    await first.kill('SIGTERM');

    const wrong = await startFailing({ ...env, ENGINE_STATE_KEY: randomBytes(32).toString('base64') });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/ENGINE_STATE_KEY: not the key the engine state in this database was sealed with/);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);

    const malformed = await startFailing({ ...env, ENGINE_STATE_KEY: 'too-short' });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/ENGINE_STATE_KEY: 32 bytes in base64/);

    const database = await createTestDatabase();
    cleanups.push(database.drop);
    const missing = await startFailing({ ...baileysEnv(network, { database: 'postgres' }), ENGINE_STATE_KEY: '', DATABASE_URL: database.url });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/ENGINE_STATE_KEY: required with DATABASE_URL/);

    // The right key (the folder's own) still starts.
    const again = await startChildGateway(env);
    await again.kill('SIGTERM');
  });

  it('reseals the state with a new key (npm run cli -- engine-state:rekey): the linked device comes back without pairing', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase({ migrated: true });
    cleanups.push(database.drop);
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const admin = { GATEWAY_ADMIN_EMAIL: 'rekey@example.com', GATEWAY_ADMIN_PASSWORD: 'rekey-password' };
    const env = { ...baileysEnv(network, { database: 'postgres' }), DATABASE_URL: database.url, ENGINE_STATE_KEY: oldKey, ...admin };
    let gateway = await startChildGateway(env);
    let api = client(gateway.url);
    const cookie = await login(api, admin.GATEWAY_ADMIN_EMAIL, admin.GATEWAY_ADMIN_PASSWORD);
    const key = await createKey(api, cookie, { name: 'rekey' });
    const { id, phone } = await pairedV1(api, key, network, 'resealed');
    await gateway.kill('SIGTERM');

    const rekey = await runCli(['engine-state:rekey'], { ...env, ENGINE_STATE_KEY_NEW: newKey });
    expect(rekey.code, rekey.output).toBe(0);
    expect(rekey.output).toMatch(/resealed \d+ engine state value\(s\) with the new key/);
    // The old key no longer opens the state.
    expect((await startFailing(env)).stderr).toMatch(/ENGINE_STATE_KEY: not the key/);

    gateway = await startChildGateway({ ...env, ENGINE_STATE_KEY: newKey });
    api = client(gateway.url);
    try {
      const back = await eventually(() => api.get(`/v1/chat/instances/${id}`, { key }), (r) => r.body.data.status === 'connected', 20_000);
      expect(back.body.data.phoneNumber).toBe(phone);
      const to = newNetworkPhone().slice(1);
      await api.post('/v1/messages/send', { key, body: { to, text: 'after a new key' } });
      expect((await network.waitForInbox(to, 1))[0]!.text).toBe('after a new key');
    } finally {
      await gateway.kill('SIGTERM');
    }
  });

  function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [...distEntry('cli'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (chunk) => (output += String(chunk)));
      child.stderr!.on('data', (chunk) => (output += String(chunk)));
      child.once('exit', (code) => resolve({ code, output }));
    });
  }
});
