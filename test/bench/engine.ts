/**
 * CHAT-BAILEYS against the local chat network (in this process), the gateway as `npm start` runs it
 * (`node dist/main.js`, its own process):
 * - messages/s through one instance, from the send request to the message decrypted by the
 *   recipient's phone on the network, and the p99 of that time;
 * - the gateway's resident memory with 1, 10 and 50 connected instances (and per instance beyond
 *   the first);
 * - database bytes of engine state per instance after pairing.
 * CHAT-CLOUD against the local business API server (in this process), CLOUD_MPS unbounded:
 * - messages/s through one instance, from the send request to the API receiving the POST, and p99;
 * - webhook statuses processed per second (signed POSTs of 50 `delivered` statuses each, answered
 *   200 once stored).
 * Both running modes: PostgreSQL + Redis, and embedded.
 * Usage: npm run bench:engine [-- --messages 500 --concurrency 20 --instances 1,10,50 --engines baileys,cloud]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { decodeQr } from '../../src/infra/qr-decode.js';
import { eventually, sleep } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { freePort } from '../helpers/child-gateway.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../helpers/modes.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { type ChatNetwork, startChatNetwork } from '../networks/chat-network/index.js';
import { serialize, signature256, startCloudApi } from '../networks/cloud-api/index.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '20' },
    instances: { type: 'string', default: '1,10,50' },
    engines: { type: 'string', default: 'baileys,cloud' },
  },
});
const MESSAGES = Number(values.messages);
const CONCURRENCY = Number(values.concurrency);
const STEPS = values.instances!.split(',').map(Number);
const ENGINES = values.engines!.split(',');
const ADMIN = { GATEWAY_ADMIN_EMAIL: 'bench@example.com', GATEWAY_ADMIN_PASSWORD: 'bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };

await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs']);

interface Gateway {
  url: string;
  child: ChildProcess;
}

async function startGateway(env: Record<string, string>): Promise<Gateway> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    env: { ...process.env, MALLOC_ARENA_MAX: '2', ...env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) return { url, child };
    if (child.exitCode !== null) throw new Error('the gateway did not start');
    await sleep(50);
  }
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** The memory figure once the process settled: the lowest of a few readings a second apart. */
async function settledRss(pid: number) {
  const readings: number[] = [];
  for (let n = 0; n < 5; n++) {
    await sleep(1000);
    readings.push(rssMb(pid));
  }
  return Math.min(...readings);
}

async function pair(api: ReturnType<typeof client>, key: string, network: ChatNetwork, name: string, phone: string) {
  const created = await api.post('/v1/chat/instances', { key, body: { name } });
  if (!created.body.data?.qrCode) throw new Error(`no QR code: ${created.text.slice(0, 200)}`);
  await network.scan(decodeQr(created.body.data.qrCode), phone);
  await eventually(() => api.get(`/v1/chat/instances/${created.body.data.id}`, { key }), (r) => r.body.data.status === 'connected', 30_000);
  return created.body.data.id as string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function measure(modeName: string, storage: Record<string, string>, stateBytes: () => Promise<number[]>) {
  const network = await startChatNetwork();
  const gateway = await startGateway({
    ...storage,
    ...ADMIN,
    ENGINES: 'baileys',
    CHAT_NETWORK_URL: network.url,
    CHAT_NETWORK_ROOT_KEY: network.rootKey,
    CHAT_NETWORK_CA_FILE: network.caFile,
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '10000000',
    RATE_LIMIT_BURST: '10000',
    DAILY_MESSAGES_ENTERPRISE: '100000000',
  });
  try {
    const api = client(gateway.url);
    const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' });
    const memory: Array<[number, number]> = [];
    let paired = 0;
    for (const count of STEPS) {
      while (paired < count) await pair(api, key, network, `line ${paired}`, `+1555${String(1_000_000 + paired++).slice(1)}000`);
      memory.push([count, await settledRss(gateway.child.pid!)]);
    }

    // Throughput through one instance: a tenant of its own with one instance.
    const api2 = client(gateway.url);
    const cookie = await login(api2, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD);
    const instanceId = (await api2.get('/v1/chat/instances', { key })).body.data[0].id as string;
    const to = `1666${randomBytes(3).readUIntBE(0, 3).toString().padStart(7, '0')}`;
    const startedAt = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MESSAGES) {
          const text = `bench ${next++}`;
          startedAt.set(text, Date.now());
          const answer = await api2.post(`/chat/instances/${instanceId}/send-text`, { cookie, body: { to, message: text } });
          if (answer.status !== 200) throw new Error(`send answered ${answer.status}`);
        }
      }),
    );
    const inbox = await network.waitForInbox(to, MESSAGES, 300_000);
    const seconds = (Math.max(...inbox.map((m) => m.receivedAt.getTime())) - Math.min(...startedAt.values())) / 1000;
    const latencies = inbox.map((m) => m.receivedAt.getTime() - startedAt.get(m.text!)!).sort((a, b) => a - b);
    const bytes = (await stateBytes()).sort((a, b) => a - b);

    const [first, ...rest] = memory;
    const last = memory.at(-1)!;
    console.log(`\n${modeName}`);
    console.log(`  one instance: ${(MESSAGES / seconds).toFixed(0)} messages/s accept → decrypted on the network (${MESSAGES} messages, ${CONCURRENCY} at a time); p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`);
    console.log(`  resident memory: ${memory.map(([n, mb]) => `${n} connected ${mb.toFixed(0)} MB`).join(', ')}`);
    if (rest.length) console.log(`  per instance beyond the first: ${((last[1] - first![1]) / (last[0] - first![0])).toFixed(2)} MB`);
    if (bytes.length) console.log(`  engine state per instance: median ${(percentile(bytes, 50) / 1024).toFixed(0)} KB, max ${(bytes.at(-1)! / 1024).toFixed(0)} KB (${bytes.length} instances)`);
  } finally {
    gateway.child.kill('SIGTERM');
    await new Promise((resolve) => gateway.child.once('exit', resolve));
    await network.close();
  }
}

/** Statuses per signed webhook POST in the status figure. */
const STATUSES_PER_POST = 50;

async function measureCloud(modeName: string, storage: Record<string, string>) {
  const cloud = await startCloudApi();
  const verifyToken = 'bench-verify-token';
  const gateway = await startGateway({
    ...storage,
    ...ADMIN,
    ENGINES: 'cloud',
    CLOUD_API_URL: cloud.url,
    CLOUD_VERIFY_TOKEN: verifyToken,
    CLOUD_MPS: '100000',
    CLOUD_WEBHOOK_PER_MINUTE: '10000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '10000000',
    RATE_LIMIT_BURST: '10000',
    DAILY_MESSAGES_ENTERPRISE: '100000000',
  });
  try {
    cloud.setWebhook(`${gateway.url}/webhooks/cloud`, verifyToken);
    const api = client(gateway.url);
    const cookie = await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD);
    const credentials = { phoneNumberId: `9${Date.now()}`, accessToken: `EAAG-${randomBytes(12).toString('hex')}`, appSecret: randomBytes(16).toString('hex') };
    cloud.addNumber({ ...credentials, displayPhoneNumber: '15559990000' });
    // The API reports no statuses by itself here: the status figure posts its own.
    cloud.statusScript(credentials.phoneNumberId, []);
    const created = await api.post('/chat/instances', { cookie, body: { name: `cloud ${Date.now()}`, integration: 'CHAT-CLOUD', cloud: credentials } });
    const instanceId = created.body.data.instanceId as string;
    await eventually(() => api.get(`/chat/instances/${instanceId}`, { cookie }), (r) => r.body.data.status === 'connected', 30_000);
    // Customers, each with an open window: one customer's messages go out in order, different customers' in parallel.
    const customers = Array.from({ length: 50 }, (_, n) => `1666${String(1_000_000 + n).slice(1)}${randomBytes(1)[0]! % 10}`);
    for (const customer of customers) cloud.openWindow(credentials.phoneNumberId, customer);

    const startedAt = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MESSAGES) {
          const n = next++;
          const text = `bench ${n}`;
          startedAt.set(text, Date.now());
          const answer = await api.post(`/chat/instances/${instanceId}/send-text`, { cookie, body: { to: customers[n % customers.length], message: text } });
          if (answer.status !== 200) throw new Error(`send answered ${answer.status}`);
        }
      }),
    );
    const sends = await cloud.waitForSent(MESSAGES, (s) => s.phoneNumberId === credentials.phoneNumberId, 300_000);
    const textOf = (body: Record<string, unknown>) => (body.text as { body: string }).body;
    const seconds = (Math.max(...sends.map((s) => s.at)) - Math.min(...startedAt.values())) / 1000;
    const latencies = sends.map((s) => s.at - startedAt.get(textOf(s.body))!).sort((a, b) => a - b);
    // Every message marked sent (its wamid stored) before statuses about it arrive.
    await eventually(
      async () => (await api.get('/v1/messages/list?limit=1', { key: await createKey(api, cookie, { name: `probe ${Date.now()}` }) })).body.data[0],
      (message) => message?.status === 'sent',
      60_000,
    );
    await sleep(1000);

    const bodies: string[] = [];
    for (let n = 0; n < sends.length; n += STATUSES_PER_POST) {
      const statuses = sends.slice(n, n + STATUSES_PER_POST).map((s) => ({ id: s.wamid, status: 'delivered', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: s.waId }));
      const value = { messaging_product: 'whatsapp', metadata: { display_phone_number: '15559990000', phone_number_id: credentials.phoneNumberId }, statuses };
      bodies.push(serialize({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value }] }] }));
    }
    const statusStart = Date.now();
    let nextBody = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (nextBody < bodies.length) {
          const body = bodies[nextBody++]!;
          const answer = await fetch(`${gateway.url}/webhooks/cloud`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature256(credentials.appSecret, body) },
            body,
          });
          if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}: ${await answer.text()}`);
        }
      }),
    );
    const statusSeconds = (Date.now() - statusStart) / 1000;
    console.log(`\n${modeName}, CHAT-CLOUD (local business API, CLOUD_MPS unbounded)`);
    console.log(`  one instance: ${(MESSAGES / seconds).toFixed(0)} messages/s accept → received by the API (${MESSAGES} messages to ${customers.length} customers, ${CONCURRENCY} at a time); p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`);
    console.log(`  webhook statuses: ${(sends.length / statusSeconds).toFixed(0)} statuses/s stored (${sends.length} delivered statuses, ${STATUSES_PER_POST} per signed POST, 4 POSTs at a time)`);
  } finally {
    gateway.child.kill('SIGTERM');
    await new Promise((resolve) => gateway.child.once('exit', resolve));
    await cloud.close();
  }
}

const stateSql = `SELECT sum(octet_length(value))::int AS bytes FROM "EngineKey" GROUP BY "instanceId"`;

// PostgreSQL + Redis: the gateway's own memory, the database elsewhere.
const database = await createTestDatabase();
try {
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  const storage = { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchengine:${randomBytes(4).toString('hex')}:`, ENGINE_STATE_KEY: randomBytes(32).toString('base64') };
  if (ENGINES.includes('baileys')) {
    await measure('PostgreSQL + Redis', storage, async () => (await sql.query<{ bytes: number }>(stateSql)).rows.map((row) => row.bytes));
  }
  if (ENGINES.includes('cloud')) await measureCloud('PostgreSQL + Redis', storage);
  await sql.end();
} finally {
  await database.drop();
}

// Embedded: PGlite in the gateway's process (its memory counts too; its state is the same as above).
const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-engine-'));
try {
  if (ENGINES.includes('baileys')) await measure('embedded (PGlite in the process)', { DATA_DIR: dir }, async () => []);
  if (ENGINES.includes('cloud')) await measureCloud('embedded (PGlite in the process)', { DATA_DIR: dir });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
