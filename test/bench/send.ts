/**
 * The message path against the framework it runs on: bare Koa, the gateway in both modes and PostgreSQL's floor,
 * in alternating rounds of one run (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench [-- --duration 10 --connections 50 --rounds 2 --mode PostgreSQL --baseline <checkout>]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import { connectedV1Instance, sleep } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { buildIfChanged, metricOf, npmStart, rssMb, scrape } from './as-users-run-it.js';
import { formatSplit, measureCpu } from './cpu-split.js';
import { postgresFloor } from './postgres-floor.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    /** Only the modes whose name contains this (e.g. PGlite, PostgreSQL). */
    mode: { type: 'string', default: '' },
    /** Another checkout (built, node_modules in place): its gateways run in the same rounds, for an after/before ratio. */
    baseline: { type: 'string' },
  },
});
const run = promisify(execFile);

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'bench@example.com', GATEWAY_ADMIN_PASSWORD: 'bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
/** Limits and quotas out of the way of the measure (the limiter itself still runs on every request). */
const LIMITS = { RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_HOUR: '1000000', RATE_LIMIT_BURST: '100', DAILY_MESSAGES_ENTERPRISE: '100000000' };

/**
 * `npm start` on an existing data dir or database, from the spawn to /readyz 200, and resident memory
 * once it has served 100 requests; the two modes alternate, three starts each.
 */
async function measureStarts(storages: Record<string, Record<string, string>>) {
  const figures: Record<string, Array<{ readyMs: number; rssMb: number }>> = {};
  // Creates and migrates each data dir or database: what a restart finds.
  for (const storage of Object.values(storages)) await (await npmStart(storage)).stop();
  for (let round = 0; round < 3; round++) {
    for (const [mode, storage] of Object.entries(storages)) {
      const started = await npmStart(storage);
      try {
        for (let i = 0; i < 100; i++) await fetch(`${started.url}/healthz`).then((r) => r.arrayBuffer());
        await sleep(500);
        (figures[mode] ??= []).push({ readyMs: started.readyMs, rssMb: rssMb(started.pid) });
      } finally {
        await started.stop();
      }
    }
  }
  return figures;
}

async function startBareKoa(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/bare-koa.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [url] = await new Promise<string[]>((resolve) => createInterface({ input: child.stdout! }).once('line', (line) => resolve([line])));
  return { url: url!, child };
}

/** A gateway as users run it, with a tenant whose one instance is paired through the sandbox. */
async function startGateway(storage: Record<string, string>, cwd?: string) {
  const started = await npmStart({ ...storage, ...ADMIN, ...LIMITS }, { cwd });
  const api = client(started.url);
  const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' });
  await connectedV1Instance(api, key, 'bench line');
  return { started, key };
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

/** What /metrics says of the message path: stored and delivered messages, database round trips. */
async function lifeFigures(url: string) {
  const text = await scrape(url);
  return { messages: metricOf(text, 'mgw_messages'), delivered: metricOf(text, 'mgw_messages', 'status="delivered"'), roundTrips: metricOf(text, 'mgw_database_round_trips_total') };
}

/**
 * Waits until every message is delivered (or a minute passes); the round trips of the whole life per
 * message, as the gateway counts them at its driver, less what the scrapes themselves cost.
 */
async function roundTripsPerMessage(url: string, before: Awaited<ReturnType<typeof lifeFigures>>, perScrape: number) {
  const deadline = Date.now() + 60_000;
  let now: Awaited<ReturnType<typeof lifeFigures>>;
  let scrapes = 0;
  do {
    await sleep(500);
    now = await lifeFigures(url);
    scrapes++;
  } while (now.delivered < now.messages && Date.now() < deadline);
  const messages = now.messages - before.messages;
  return { perMessage: messages ? (now.roundTrips - before.roundTrips - scrapes * perScrape) / messages : 0, undelivered: now.messages - now.delivered };
}

const dataDir = mkdtempSync(join(tmpdir(), 'mgw-bench-'));
const postgresDir = mkdtempSync(join(tmpdir(), 'mgw-bench-pg-'));
const database = await createTestDatabase();
const STORAGE: Record<string, Record<string, string>> = {
  'embedded (PGlite)': { DATA_DIR: dataDir },
  'PostgreSQL + Redis': { DATA_DIR: postgresDir, DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbench:${process.pid}:` },
};
const chosen = Object.entries(STORAGE).filter(([name]) => !values.mode || name.includes(values.mode) || (values.mode === 'PGlite' && name.includes('embedded')));
await buildIfChanged();
const starts = await measureStarts(Object.fromEntries(chosen));
for (const [mode, list] of Object.entries(starts)) {
  console.log(`npm start, ${mode}, existing data: /readyz 200 after ${list.map((f) => `${Math.round(f.readyMs)} ms`).join(', ')} from the spawn; ${list.map((f) => Math.round(f.rssMb)).join(', ')} MB resident after 100 requests`);
}

// Every server in its own process: the gateways as `npm start` runs them, bare Koa, autocannon.
const CPU = 'cores: server / PostgreSQL / Redis / rest (machine busy of all)';
const bare = await startBareKoa();
const gateways = [];
const baselineDatabases: Array<Awaited<ReturnType<typeof createTestDatabase>>> = [];
if (values.baseline) await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: values.baseline });
for (const [name, storage] of chosen) {
  gateways.push({ name, postgres: Boolean(storage.DATABASE_URL), ...(await startGateway(storage)) });
  if (!values.baseline) continue;
  // The baseline on data of its own (a folder; a database of its own), so neither build's tables weigh on the other.
  const own = storage.DATABASE_URL ? await createTestDatabase() : undefined;
  if (own) baselineDatabases.push(own);
  const baselineStorage = { ...storage, DATA_DIR: mkdtempSync(join(tmpdir(), 'mgw-bench-baseline-')), ...(own ? { DATABASE_URL: own.url, REDIS_PREFIX: `${storage.REDIS_PREFIX}baseline:` } : {}) };
  gateways.push({ name: `${name}, baseline`, postgres: Boolean(storage.DATABASE_URL), ...(await startGateway(baselineStorage, values.baseline)) });
}
const rows: Array<Record<string, string | number>> = [];
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    const baseline = await load(bare.url, 'bench', bare.child.pid!);
    rows.push({ round, server: 'bare Koa', 'req/s': Math.round(baseline.rps), 'p50 ms': baseline.p50, 'p99 ms': baseline.p99, 'of bare Koa': '100 %', 'of PostgreSQL floor': '-', 'non-2xx': baseline.other, 'round trips / message': '-', [CPU]: formatSplit(baseline.split) });
    // PostgreSQL's floor: each message's life as three single-row commits, which grouped commits should beat.
    // One that cannot run (a shared server's connections all taken) is said in its row; the gateways still run
    // (docs/benchmarks.md, "PostgreSQL's floor").
    const floor = await postgresFloor(Number(values.duration), Number(values.connections)).catch((error: Error) => error);
    const measuredFloor = typeof floor === 'number';
    rows.push({
      round,
      server: 'PostgreSQL alone (pgbench, 3 commits a message)',
      'req/s': measuredFloor ? Math.round(floor) : `not measured: ${whyNotMeasured(floor)}`,
      'p50 ms': '-',
      'p99 ms': '-',
      'of bare Koa': measuredFloor ? `${((100 * floor) / baseline.rps).toFixed(1)} %` : '-',
      'of PostgreSQL floor': measuredFloor ? '100 %' : '-',
      'non-2xx': '-',
      'round trips / message': 3,
      [CPU]: '-',
    });
    // Each round in the other order, so a drift over the run weighs on every gateway alike.
    for (const g of round % 2 ? gateways : [...gateways].reverse()) {
      // What one scrape of /metrics costs in round trips: two in a row.
      const a = await lifeFigures(g.started.url);
      const perScrape = (await lifeFigures(g.started.url)).roundTrips - a.roundTrips;
      const before = await lifeFigures(g.started.url);
      const measured = await load(g.started.url, g.key, g.started.pid);
      const life = await roundTripsPerMessage(g.started.url, before, perScrape);
      rows.push({
        round,
        server: `gateway, ${g.name}`,
        'req/s': Math.round(measured.rps),
        'p50 ms': measured.p50,
        'p99 ms': measured.p99,
        'of bare Koa': `${((100 * measured.rps) / baseline.rps).toFixed(1)} %`,
        'of PostgreSQL floor': g.postgres && measuredFloor ? (measured.rps / floor).toFixed(2) : '-',
        'non-2xx': measured.other,
        'round trips / message': `${life.perMessage.toFixed(1)}${life.undelivered ? ` (${life.undelivered} undelivered after 60 s)` : ''}`,
        [CPU]: formatSplit(measured.split),
      });
    }
  }
} finally {
  bare.child.kill('SIGTERM');
  for (const g of gateways) await g.started.stop();
  for (const dir of [dataDir, postgresDir]) rmSync(dir, { recursive: true, force: true });
  await database.drop();
  for (const own of baselineDatabases) await own.drop();
}
console.log(`POST /v1/messages/send, ${values.connections} connections, ${values.duration} s per server and round:`);
console.table(rows);
process.exit(0);

/** pgbench's own line for why it could not run (PostgreSQL's FATAL message when there is one). */
function whyNotMeasured(error: Error): string {
  const lines = error.message.split('\n');
  const said = lines.find((line) => line.includes('error:')) ?? lines[0]!;
  return /FATAL:\s*(.*)/.exec(said)?.[1] ?? said.trim();
}
