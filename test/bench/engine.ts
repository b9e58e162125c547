/**
 * CHAT-BAILEYS against the local chat network and CHAT-CLOUD against the local business API, then the node
 * at scale (docs/benchmarks.md, "Each benchmark in detail"). Usage: npm run bench:engine [-- --messages 500
 *   --concurrency 20 --instances 1,10,50 --engines baileys,cloud --scale-memory 500 --scale-restart 1000 --spread 50 --spread-messages 5000 --skip-basic]
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { decodeQr } from '../../src/infra/qr-decode.js';
import { eventually, sleep } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { type ChatNetwork, startChatNetwork } from '../networks/chat-network/index.js';
import { serialize, signature256, startCloudApi } from '../networks/cloud-api/index.js';
import type { FromLibrary, ToLibrary } from './library-alone.js';
import { cpuSeconds, npmStart, rssMb, type StartedGateway } from './as-users-run-it.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '20' },
    instances: { type: 'string', default: '1,10,50' },
    engines: { type: 'string', default: 'baileys,cloud' },
    'scale-memory': { type: 'string', default: '500' },
    'scale-restart': { type: 'string', default: '1000' },
    spread: { type: 'string', default: '50' },
    'spread-messages': { type: 'string', default: '5000' },
    'idle-seconds': { type: 'string', default: '30' },
    'skip-basic': { type: 'boolean', default: false },
    'skip-scale': { type: 'boolean', default: false },
    'skip-library': { type: 'boolean', default: false },
    'library-instances': { type: 'string', default: '50' },
    'library-messages': { type: 'string', default: '2000' },
    'library-recipients': { type: 'string', default: '10' },
    'library-concurrency': { type: 'string', default: '100' },
    'library-mode': { type: 'string', default: 'PostgreSQL' },
  },
});
const MESSAGES = Number(values.messages);
const CONCURRENCY = Number(values.concurrency);
const STEPS = values.instances!.split(',').map(Number);
const ENGINES = values.engines!.split(',');
const ADMIN = { GATEWAY_ADMIN_EMAIL: 'bench@example.com', GATEWAY_ADMIN_PASSWORD: 'bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };

await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs']);

/** CHAT-BAILEYS on the local network, with limits and quotas out of the way of the measures. */
const baileysOn = (network: ChatNetwork) => ({
  ENGINES: 'baileys',
  CHAT_NETWORK_URL: network.url,
  CHAT_NETWORK_ROOT_KEY: network.rootKey,
  CHAT_NETWORK_CA_FILE: network.caFile,
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_PER_HOUR: '10000000',
  RATE_LIMIT_BURST: '10000',
  DAILY_MESSAGES_ENTERPRISE: '100000000',
});

/** The gateway as users run it (`npm start`, its own process), with the bench's environment over its own. */
const startGateway = (env: Record<string, string>): Promise<StartedGateway> => npmStart({ MALLOC_ARENA_MAX: '2', ...env });


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
  const id = created.body.data.id as string;
  let qr = created.body.data.qrCode as string;
  // On a busy machine a code can run out before it is scanned: the phone scans the live one.
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await sleep(200)) {
    await network.scan(decodeQr(qr), phone).catch(() => {});
    const status = (await api.get(`/v1/chat/instances/${id}`, { key })).body.data.status;
    if (status === 'connected') return id;
    // The live code, or (its codes having run out: disconnected) the first of a new pairing.
    if (status === 'qr_code' || status === 'initializing' || status === 'disconnected') qr = (await api.get(`/v1/chat/instances/${id}/qr`, { key })).body.data?.qrCode ?? qr;
  }
  throw new Error(`instance ${name} did not connect`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function measure(modeName: string, storage: Record<string, string>, stateBytes: () => Promise<number[]>) {
  const network = await startChatNetwork();
  const gateway = await startGateway({
    ...storage,
    ...ADMIN,
    ...baileysOn(network),
  });
  try {
    const api = client(gateway.url);
    const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' });
    const memory: Array<[number, number]> = [];
    let paired = 0;
    for (const count of STEPS) {
      while (paired < count) await pair(api, key, network, `line ${paired}`, `+1555${String(1_000_000 + paired++).slice(1)}000`);
      memory.push([count, await settledRss(gateway.pid)]);
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
    await gateway.stop();
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
    await gateway.stop();
    await cloud.close();
  }
}

async function cli(env: Record<string, string>, args: string[]): Promise<any> {
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli.js', ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'warn' } });
  return JSON.parse(stdout);
}

/** Runs `work` over 0..count-1, `width` at a time. */
async function eachOf(count: number, width: number, work: (n: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await work(next++);
  }));
}

/** The node at scale, PostgreSQL + Redis (see the header). */
async function measureScale() {
  const memoryAt = Number(values['scale-memory']);
  const restartAt = Math.max(memoryAt, Number(values['scale-restart']));
  const spread = Number(values.spread);
  const spreadMessages = Number(values['spread-messages']);
  const database = await createTestDatabase();
  const network = await startChatNetwork();
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: `mgwbenchscale:${randomBytes(4).toString('hex')}:`,
    ENGINE_STATE_KEY: randomBytes(32).toString('base64'),
    ...baileysOn(network),
  };
  let gateway = await startGateway(env);
  try {
    let api = client(gateway.url);
    // Enterprise tenants hold 50 instances each: as many tenants as the largest step needs.
    const keys: string[] = [];
    const tenantIds: string[] = [];
    for (let n = 0; n < Math.ceil(restartAt / 50); n++) {
      const tenant = await cli(env, ['tenant:create', '--name', `bench ${n}`, '--plan', 'enterprise']);
      tenantIds.push(tenant.id);
      keys.push((await cli(env, ['key:create', '--tenant', tenant.id, '--name', 'bench'])).key);
    }
    const ids: string[] = [];
    const pairUpTo = async (count: number) => {
      const from = ids.length;
      await eachOf(count - from, 8, async (n) => {
        const index = from + n;
        ids[index] = await pair(api, keys[Math.floor(index / 50)]!, network, `scale ${index}`, `+1777${String(10_000_000 + index).slice(1)}`);
      });
    };
    await pairUpTo(1);
    const firstRss = await settledRss(gateway.pid);
    let startedAt = Date.now();
    await pairUpTo(memoryAt);
    const pairingSeconds = (Date.now() - startedAt) / 1000;
    const rss = await settledRss(gateway.pid);
    console.log('\nat scale, PostgreSQL + Redis (one gateway process; the network in the bench process)');
    console.log(`  paired ${memoryAt} instances in ${pairingSeconds.toFixed(0)} s; resident memory 1 connected ${firstRss.toFixed(0)} MB, ${memoryAt} connected ${rss.toFixed(0)} MB: ${((rss - firstRss) / (memoryAt - 1)).toFixed(2)} MB per instance beyond the first`);

    const idleSeconds = Number(values['idle-seconds']);
    const cpuBefore = cpuSeconds(gateway.pid);
    await sleep(idleSeconds * 1000);
    const idleCpu = ((cpuSeconds(gateway.pid) - cpuBefore) / idleSeconds) * 100;
    console.log(`  idle CPU with ${memoryAt} connected: ${idleCpu.toFixed(1)} % of a core (${idleSeconds} s)`);

    // Routed sends of the first tenant spread over its 50 instances (least recently used first).
    const recipients = Array.from({ length: spread }, (_, n) => `1888${String(10_000_000 + n).slice(1)}`);
    const sentAt = new Map<string, number>();
    let next = 0;
    startedAt = Date.now();
    await Promise.all(Array.from({ length: 100 }, async () => {
      while (next < spreadMessages) {
        const n = next++;
        sentAt.set(`spread ${n}`, Date.now());
        const answer = await api.post('/v1/messages/send', { key: keys[0]!, body: { to: recipients[n % spread], text: `spread ${n}` } });
        if (answer.status !== 200) throw new Error(`send answered ${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }));
    await network.waitFor(() => recipients.reduce((sum, to) => sum + network.inbox(to).length, 0) >= spreadMessages, 600_000, 'every spread message');
    const received = recipients.flatMap((to) => network.inbox(to));
    const spreadSeconds = (Math.max(...received.map((m) => m.receivedAt.getTime())) - startedAt) / 1000;
    const senders = new Set(received.map((m) => m.from)).size;
    console.log(`  routed through ${senders} instances: ${(spreadMessages / spreadSeconds).toFixed(0)} messages/s accept → decrypted on the network (${spreadMessages} messages, most of them a pair's first message: a session set up)`);

    // The same through sessions in place: instance n always sends to its own recipient (instance sends,
    // a user of the first tenant), after one message per pair has set the session up.
    await cli(env, ['user:create', '--tenant', tenantIds[0]!, '--email', 'spread@example.com', '--password', 'spread-password']);
    const cookie = await login(api, 'spread@example.com', 'spread-password');
    const pinned = Array.from({ length: spread }, (_, n) => ({ id: ids[n]!, to: `1889${String(10_000_000 + n).slice(1)}` }));
    const sendPinned = async (n: number, text: string) => {
      const { id, to } = pinned[n % spread]!;
      const answer = await api.post(`/chat/instances/${id}/send-text`, { cookie, body: { to, message: text } });
      if (answer.status !== 200) throw new Error(`send-text answered ${answer.status} ${answer.text.slice(0, 200)}`);
    };
    const pinnedInbox = () => pinned.reduce((sum, { to }) => sum + network.inbox(to).length, 0);
    await eachOf(spread, 20, (n) => sendPinned(n, 'first'));
    await network.waitFor(() => pinnedInbox() >= spread, 120_000, 'every first pinned message');
    startedAt = Date.now();
    await eachOf(spreadMessages, 100, (n) => sendPinned(n, `pinned ${n}`));
    await network.waitFor(() => pinnedInbox() >= spread + spreadMessages, 600_000, 'every pinned message');
    const pinnedSeconds = (Math.max(...pinned.flatMap(({ to }) => network.inbox(to).map((m) => m.receivedAt.getTime()))) - startedAt) / 1000;
    console.log(`  through ${spread} instances with sessions in place: ${(spreadMessages / pinnedSeconds).toFixed(0)} messages/s accept → decrypted on the network (${spreadMessages} messages)`);

    // State growth through one instance (a tenant of its own, so routed sends all take it): many messages
    // to one known contact, then one message to each of 20 new contacts.
    const stateOf = async (id: string) => (await sql.query<{ bytes: number }>(`SELECT coalesce(sum(octet_length(value)), 0)::int AS bytes FROM "EngineKey" WHERE "instanceId" = $1`, [id])).rows[0]!.bytes;
    const soloTenant = await cli(env, ['tenant:create', '--name', 'bench solo', '--plan', 'enterprise']);
    const soloKey = (await cli(env, ['key:create', '--tenant', soloTenant.id, '--name', 'bench'])).key as string;
    const solo = await pair(api, soloKey, network, 'solo', '+17779999999');
    const routed = async (to: string, text: string) => {
      const answer = await api.post('/v1/messages/send', { key: soloKey, body: { to, text } });
      if (answer.status !== 200) throw new Error(`send answered ${answer.status}`);
    };
    const known = '1999000000001';
    await routed(known, 'hello');
    await network.waitForInbox(known, 1);
    await sleep(2000);
    const s0 = await stateOf(solo);
    for (let n = 0; n < 100; n++) await routed(known, `again ${n}`);
    await network.waitForInbox(known, 101, 120_000);
    await sleep(2000);
    const s1 = await stateOf(solo);
    const fresh = Array.from({ length: 20 }, (_, n) => `19990000002${String(10 + n)}`);
    for (const to of fresh) await routed(to, 'new contact');
    await network.waitFor(() => fresh.every((to) => network.inbox(to).length === 1), 120_000);
    await sleep(2000);
    const s2 = await stateOf(solo);
    const bytes = (await sql.query<{ bytes: number }>(stateSql)).rows.map((row) => row.bytes).sort((a, b) => a - b);
    console.log(`  engine state per instance: median ${(percentile(bytes, 50) / 1024).toFixed(0)} KB, max ${(bytes.at(-1)! / 1024).toFixed(0)} KB; through one instance, 100 more messages to a known contact: ${((s1 - s0) / 1024).toFixed(1)} KB in all, per new contact:  ${((s2 - s1) / 20 / 1024).toFixed(2)} KB`);

    // The restart: every paired instance back without pairing.
    await pairUpTo(restartAt);
    await gateway.stop();
    await network.waitFor(() => network.devices().every((device) => !device.connected), 60_000, 'every device gone');
    network.resetHandshakePeak();
    const restartedAt = Date.now();
    gateway = await startGateway(env);
    api = client(gateway.url);
    const latencies: number[] = [];
    let waveOver = false;
    const probes = (async () => {
      while (!waveOver) {
        const t0 = Date.now();
        const answer = await api.get(`/v1/chat/instances/${ids[0]}`, { key: keys[0]! });
        if (answer.status !== 200) throw new Error(`detail answered ${answer.status}`);
        latencies.push(Date.now() - t0);
        await sleep(20);
      }
    })();
    // Connected as the network sees it: a logged-in device (the rows kept `connected` across the restart).
    await network.waitFor(() => network.devices().filter((device) => device.connected).length >= restartAt, 600_000, 'every device logged in again');
    const connectedAfter = (Date.now() - restartedAt) / 1000;
    waveOver = true;
    await probes;
    latencies.sort((a, b) => a - b);
    const restartRss = rssMb(gateway.pid);

    console.log(`  restart with ${restartAt} paired: all connected after ${connectedAfter.toFixed(1)} s (peak handshakes in flight ${network.stats().maxHandshakesInFlight}); API p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms over ${latencies.length} requests meanwhile; resident memory then ${restartRss.toFixed(0)} MB`);
  } finally {
    await gateway.stop();
    await sql.end();
    await network.close();
    await database.drop();
  }
}

/**
 * The gateway against its own library, same network, same conversations in the same order, first messages
 * and then with sessions in place (docs/benchmarks.md, "The gateway against the library alone").
 */
async function measureAgainstLibrary() {
  const instances = Number(values['library-instances']);
  const count = Number(values['library-messages']);
  const recipientsPerSide = Number(values['library-recipients']);
  const concurrency = Number(values['library-concurrency']);
  const embedded = values['library-mode'] === 'embedded';
  const network = await startChatNetwork();
  const database = embedded ? undefined : await createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-library-'));
  const storage: Record<string, string> = database
    ? { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchlib:${randomBytes(4).toString('hex')}:`, ENGINE_STATE_KEY: randomBytes(32).toString('base64'), DATA_DIR: dir }
    : { DATA_DIR: dir };
  // BENCH_LIBRARY_CPU_PROFILE=<dir> profiles the library's process as BENCH_GATEWAY_CPU_PROFILE does the gateway's.
  const libraryProfile = process.env.BENCH_LIBRARY_CPU_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_LIBRARY_CPU_PROFILE] : [];
  const library = spawn(process.execPath, [...libraryProfile, '--import', 'tsx', 'test/bench/library-alone.ts'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (message: ToLibrary) =>
    new Promise<FromLibrary>((resolve, reject) => {
      library.once('message', (answer: FromLibrary) => (answer.kind === 'failed' ? reject(new Error(answer.message)) : resolve(answer)));
      library.send(message);
    });
  const gateway = await startGateway({ ...storage, ...ADMIN, ...baileysOn(network) });
  try {
    const api = client(gateway.url);
    const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' });
    const phone = (side: number, n: number) => `+1${side}${String(100_000_000 + n).slice(1)}0`;
    let pairedAt = Date.now();
    await eachOf(instances, 8, async (n) => void (await pair(api, key, network, `library ${n}`, phone(7, n))));
    const gatewayPairing = (Date.now() - pairedAt) / 1000;
    pairedAt = Date.now();
    await ask({ kind: 'pair', network: { url: network.url, rootKey: network.rootKey, caPem: network.caPem, controlUrl: network.controlUrl }, phones: Array.from({ length: instances }, (_, n) => phone(8, n)) });
    const libraryPairing = (Date.now() - pairedAt) / 1000;
    console.log(`
the gateway against its library alone (${embedded ? 'embedded' : 'PostgreSQL + Redis'}; ${instances} linked phones each: paired in ${gatewayPairing.toFixed(0)} s through the gateway, ${libraryPairing.toFixed(0)} s by the library)`);

    const phones = { library: Array.from({ length: instances }, (_, n) => phone(8, n).slice(1)), gateway: Array.from({ length: instances }, (_, n) => phone(7, n).slice(1)) };
    const recipients = { library: Array.from({ length: recipientsPerSide }, (_, n) => `1555${String(3_000_000 + n)}`), gateway: Array.from({ length: recipientsPerSide }, (_, n) => `1555${String(4_000_000 + n)}`) };
    /**
     * Seconds from the first send until the network decrypted every message whose text starts with
     * `prefix`; and which linked phone (its index) carried message n, and how many conversations
     * (phone → contact) the pass used.
     */
    const decrypted = async (side: keyof typeof recipients, prefix: string, sentAt: Map<string, number>) => {
      const mine = () => recipients[side].flatMap((to) => network.inbox(to)).filter((m) => m.text?.startsWith(`${prefix} `));
      await network.waitFor(() => mine().length >= count, 900_000, `every ${side} message of ${prefix}`);
      const received = mine();
      const latencies = received.map((m) => m.receivedAt.getTime() - sentAt.get(m.text!)!).sort((a, b) => a - b);
      const seconds = (Math.max(...received.map((m) => m.receivedAt.getTime())) - Math.min(...sentAt.values())) / 1000;
      const senders: number[] = [];
      for (const m of received) senders[Number(m.text!.slice(prefix.length + 1))] = phones[side].indexOf(m.from);
      const conversations = new Set(received.map((m) => `${m.from}>${m.chat}`)).size;
      return { seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), senders, conversations, cpuMs: 0 };
    };
    /** The library sends each message from the phone the gateway's routing picked for it: the same conversations. */
    const runLibrary = async (prefix: string, senders: number[]) => {
      const answer = (await ask({ kind: 'send', count, concurrency, recipients: recipients.library, prefix, senders })) as Extract<FromLibrary, { kind: 'sent' }>;
      return decrypted('library', prefix, new Map(answer.sentAt));
    };
    const runGateway = async (prefix: string) => {
      const sentAt = new Map<string, number>();
      await eachOf(count, concurrency, async (n) => {
        const text = `${prefix} ${n}`;
        sentAt.set(text, Date.now());
        const answer = await api.post('/v1/messages/send', { key, body: { to: recipients.gateway[n % recipientsPerSide], text } });
        if (answer.status !== 200) throw new Error(`send answered ${answer.status} ${answer.text.slice(0, 200)}`);
      });
      return decrypted('gateway', prefix, sentAt);
    };
    const rows: Array<Record<string, string | number>> = [];
    for (const [pass, prefix] of [['first messages (sessions set up)', 'first'], ['sessions in place', 'again']] as const) {
      // The gateway first: the library then replays the conversations its routing chose.
      let cpu = cpuSeconds(gateway.pid);
      const gw = await runGateway(prefix);
      gw.cpuMs = ((cpuSeconds(gateway.pid) - cpu) * 1000) / count;
      cpu = cpuSeconds(library.pid!);
      const lib = await runLibrary(prefix, gw.senders);
      lib.cpuMs = ((cpuSeconds(library.pid!) - cpu) * 1000) / count;
      rows.push({
        pass,
        conversations: lib.conversations === gw.conversations ? lib.conversations : `${lib.conversations} / ${gw.conversations}`,
        'library msgs/s': Math.round(count / lib.seconds),
        'library p50 / p99 ms': `${lib.p50} / ${lib.p99}`,
        'gateway msgs/s': Math.round(count / gw.seconds),
        'gateway p50 / p99 ms': `${gw.p50} / ${gw.p99}`,
        'gateway ÷ library': (lib.seconds / gw.seconds).toFixed(2),
        'CPU ms / message, library / gateway': `${lib.cpuMs.toFixed(2)} / ${gw.cpuMs.toFixed(2)}`,
      });
    }
    console.log(`  ${count} texts to ${recipientsPerSide} contacts each side, ${concurrency} at a time, accept → decrypted on the network:`);
    console.table(rows);
  } finally {
    // The library process exits on close without answering: wait for its exit, not for an answer.
    if (library.exitCode === null && library.signalCode === null) {
      const exited = new Promise((resolve) => library.once('exit', resolve));
      library.send({ kind: 'close' } satisfies ToLibrary);
      await exited;
    }
    await gateway.stop();
    await network.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const stateSql = `SELECT sum(octet_length(value))::int AS bytes FROM "EngineKey" GROUP BY "instanceId"`;

if (!values['skip-basic']) {
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
}

if (!values['skip-library']) await measureAgainstLibrary();
if (!values['skip-scale']) await measureScale();
process.exit(0);
