/**
 * The message path against the framework it runs on: POST /v1/messages/send on bare Koa (same body
 * parsing and validation, no storage) and on the gateway in both running modes, in the same run,
 * alternating rounds so a noisy neighbour hurts every server alike. The gateway sends through a
 * sandbox instance that was paired by QR, so every accepted message is also dispatched, marked sent
 * and delivered with its events and webhooks; the database round trips per message count that whole life
 * (at the driver, BEGIN and COMMIT included). Each round also says where the machine's CPU went (the
 * server, PostgreSQL, Redis, the rest: the load generator and the kernel), since bare Koa has the
 * machine to itself and the gateway shares it with its database (`cpu-split.ts`). Each round also runs
 * PostgreSQL's own floor (`postgres-floor.ts`: pgbench, each message's life as three single-row commits,
 * as many clients) and prints the PostgreSQL gateway's ratio to it.
 * First prints, for `node dist/main.js` (what `npm start` runs) in both modes on existing data, the time
 * to ready and the resident memory after 100 requests. The load generator
 * (autocannon) and bare Koa run as processes of their own.
 * Usage: npm run bench [-- --duration 10 --connections 50 --rounds 2 --mode PostgreSQL]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import { connectedV1Instance, sleep } from '../factories/sandbox.js';
import { createTenant } from '../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { MODES, REDIS_URL } from '../helpers/modes.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { formatSplit, measureCpu } from './cpu-split.js';
import { postgresFloor } from './postgres-floor.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    /** Only the modes whose name contains this (e.g. PGlite, PostgreSQL). */
    mode: { type: 'string', default: '' },
  },
});
const run = promisify(execFile);

/**
 * `npm start`'s process (`node dist/main.js`, built first when stale) on an existing data dir or
 * database: time to ready, and resident memory once it has served 100 requests.
 */
async function measureStart(storage: Record<string, string>): Promise<{ readyMs: number; rssMb: number }> {
  // As `npm start` runs it: two malloc arenas.
  const env = { ...process.env, MALLOC_ARENA_MAX: '2', PORT: '3999', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', ...storage };
  const once = async () => {
    const started = performance.now();
    // As `npm start` runs it: embedded, a smaller young generation.
    const flags = storage.DATABASE_URL ? [] : ['--max-semi-space-size=4'];
    const child = spawn(process.execPath, ['--enable-source-maps', ...flags, 'dist/main.js'], { env, stdio: 'ignore' });
    try {
      for (;;) {
        const ok = await fetch('http://127.0.0.1:3999/readyz').then((r) => r.ok, () => false);
        if (ok) break;
        if (performance.now() - started > 60_000) throw new Error('gateway did not become ready in 60 s');
        await sleep(20);
      }
      const readyMs = performance.now() - started;
      for (let i = 0; i < 100; i++) await fetch('http://127.0.0.1:3999/healthz').then((r) => r.arrayBuffer());
      await sleep(500);
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]!;
      return { readyMs, rssMb: Number(rss) / 1024 };
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  };
  await once(); // creates and migrates the data dir or database
  return once();
}

async function measureStarts() {
  await run(process.execPath, ['scripts/build-if-changed.mjs']);
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-bench-'));
  const database = await createTestDatabase();
  try {
    const embedded = await measureStart({ DATA_DIR: dataDir });
    const postgres = await measureStart({ DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL: REDIS_URL, REDIS_PREFIX: `mgwbench:${process.pid}:` });
    return { embedded, postgres };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

async function startBareKoa(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/bare-koa.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [url] = await new Promise<string[]>((resolve) => createInterface({ input: child.stdout! }).once('line', (line) => resolve([line])));
  return { url: url!, child };
}

/** A gateway with a tenant whose one instance is paired through the sandbox, counting its database round trips. */
async function startGateway(mode: (typeof MODES)[number]) {
  const counter = { roundTrips: 0 };
  const gw = await startTestGateway(mode, {
    env: { LOG_LEVEL: 'warn', DAILY_MESSAGES_PRO: '100000000' },
    infra: { onQuery: () => void counter.roundTrips++ },
  });
  const api = client(gw.url);
  const tenant = await createTenant(gw.gateway, api);
  await connectedV1Instance(api, tenant.liveKey, 'bench line');
  return { gw, tenant, counter };
}

/** One round of load on `url`; `serverPid` is the process serving it, for the CPU split. */
async function load(url: string, key: string, serverPid: number) {
  const cpu = measureCpu();
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    [
      '--json',
      '-d', values.duration!,
      '-c', values.connections!,
      '-m', 'POST',
      '-H', `authorization=Bearer ${key}`,
      '-H', 'content-type=application/json',
      '-b', JSON.stringify({ to: '5511987654321', text: 'benchmark message' }),
      `${url}/v1/messages/send`,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const split = cpu(serverPid);
  const result = JSON.parse(stdout);
  return { split, rps: result.requests.average as number, p50: result.latency.p50 as number, p99: result.latency.p99 as number, ok: result['2xx'] as number, other: (result.non2xx as number) + (result.errors as number) };
}

/** Waits until every message of the tenant is delivered (or a minute passes); the round trips of the whole life per message. */
async function roundTripsPerMessage(gateway: { gw: TestGateway; tenant: { tenantId: string }; counter: { roundTrips: number } }, before: number, messagesBefore: number) {
  const prisma = gateway.gw.gateway.infra.db.prisma;
  const deadline = Date.now() + 60_000;
  let delivered = 0;
  let total = 0;
  // The two counting queries of each poll are the benchmark's own, not the gateway's.
  let own = 0;
  do {
    await sleep(500);
    total = await prisma.message.count({ where: { tenantId: gateway.tenant.tenantId } });
    delivered = await prisma.message.count({ where: { tenantId: gateway.tenant.tenantId, status: 'delivered' } });
    own += 2;
  } while (delivered < total && Date.now() < deadline);
  const messages = total - messagesBefore;
  return { perMessage: messages ? (gateway.counter.roundTrips - before - own) / messages : 0, undelivered: total - delivered };
}

const starts = await measureStarts();
for (const [mode, figures] of Object.entries(starts)) {
  console.log(`node dist/main.js, ${mode}, existing data: ready in ${Math.round(figures.readyMs)} ms, ${Math.round(figures.rssMb)} MB resident after 100 requests`);
}

// The gateway runs in this process; bare Koa in its own.
const CPU = 'cores: server / PostgreSQL / Redis / rest (machine busy of all)';
const bare = await startBareKoa();
const gateways = [];
for (const mode of MODES.filter((m) => m.name.includes(values.mode!))) gateways.push({ mode, ...(await startGateway(mode)) });
const rows: Array<Record<string, string | number>> = [];
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    const baseline = await load(bare.url, 'bench', bare.child.pid!);
    rows.push({ round, server: 'bare Koa', 'req/s': Math.round(baseline.rps), 'p50 ms': baseline.p50, 'p99 ms': baseline.p99, 'of bare Koa': '100 %', 'of PostgreSQL floor': '-', 'non-2xx': baseline.other, 'round trips / message': '-', [CPU]: formatSplit(baseline.split) });
    // PostgreSQL alone doing each message's life as three single-row commits, with as many clients: the floor a
    // gateway on PostgreSQL should beat by committing in groups.
    const floor = await postgresFloor(Number(values.duration), Number(values.connections));
    rows.push({ round, server: 'PostgreSQL alone (pgbench, 3 commits a message)', 'req/s': Math.round(floor), 'p50 ms': '-', 'p99 ms': '-', 'of bare Koa': `${((100 * floor) / baseline.rps).toFixed(1)} %`, 'of PostgreSQL floor': '100 %', 'non-2xx': '-', 'round trips / message': 3, [CPU]: '-' });
    for (const g of gateways) {
      const messagesBefore = await g.gw.gateway.infra.db.prisma.message.count({ where: { tenantId: g.tenant.tenantId } });
      const before = g.counter.roundTrips;
      const measured = await load(g.gw.url, g.tenant.liveKey, process.pid);
      const life = await roundTripsPerMessage(g, before, messagesBefore);
      rows.push({
        round,
        server: `gateway, ${g.mode.name}`,
        'req/s': Math.round(measured.rps),
        'p50 ms': measured.p50,
        'p99 ms': measured.p99,
        'of bare Koa': `${((100 * measured.rps) / baseline.rps).toFixed(1)} %`,
        'of PostgreSQL floor': g.mode.database === 'postgres' ? (measured.rps / floor).toFixed(2) : '-',
        'non-2xx': measured.other,
        'round trips / message': `${life.perMessage.toFixed(1)}${life.undelivered ? ` (${life.undelivered} undelivered after 60 s)` : ''}`,
        [CPU]: formatSplit(measured.split),
      });
    }
  }
} finally {
  bare.child.kill('SIGTERM');
  for (const g of gateways) await g.gw.close();
}
console.log(`POST /v1/messages/send, ${values.connections} connections, ${values.duration} s per server and round:`);
console.table(rows);
process.exit(0);
