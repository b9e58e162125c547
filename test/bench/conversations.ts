/**
 * Conversations as users run them, both modes: reads on a seeded instance, history ingest, sends against an older build
 * (docs/benchmarks.md, "Each benchmark in detail"). Usage: npm run bench:conversations [-- --mode PostgreSQL --baseline-commit e5447c6]
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import { connectedV1Instance } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { buildIfChanged, npmStart } from './as-users-run-it.js';
import { DEEP_CHAT, seedConversations } from './conversation-seed.js';
import { type CpuSplit, formatSplit, measureCpu } from './cpu-split.js';

const { values } = parseArgs({
  options: {
    /** Only the modes whose name contains this (PGlite or embedded, PostgreSQL). */
    mode: { type: 'string', default: '' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '10' },
    /** Concurrent readers of the read measures. */
    readers: { type: 'string', default: '20' },
    chats: { type: 'string', default: '10000' },
    messages: { type: 'string', default: '1000000' },
    deep: { type: 'string', default: '100000' },
    'history-batches': { type: 'string', default: '200' },
    'history-per-batch': { type: 'string', default: '300' },
    'history-chats-per-batch': { type: 'string', default: '10' },
    'send-connections': { type: 'string', default: '50' },
    /** The build under test: another checkout (built if needed, node_modules in place) instead of this one. */
    checkout: { type: 'string' },
    /** Another checkout, built, node_modules in place: the sends' baseline. */
    baseline: { type: 'string' },
    /** A commit of this repository: cloned and built in the temporary folder (kept for the next run), the sends' baseline. */
    'baseline-commit': { type: 'string' },
    skip: { type: 'string', default: '', description: 'comma-separated: reads, history, sends' },
    /** Keeps the seeded database (its folder, or its PostgreSQL database) for EXPLAIN ANALYZE after the run; prints where. */
    keep: { type: 'boolean', default: false },
  },
});
const run = promisify(execFile);
const skip = new Set(values.skip!.split(',').filter(Boolean));
const READERS = Number(values.readers);
const CHECKOUT = values.checkout ? resolve(values.checkout) : undefined;
const FEED = fileURLToPath(new URL('./history-feed.mjs', import.meta.url));
const GOAL_P99_MS = 50;

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'bench@example.com', GATEWAY_ADMIN_PASSWORD: 'bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
/** Limits and quotas out of the way of the measure (the limiter itself still runs on every request). */
const LIMITS = { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000', RATE_LIMIT_BURST: '10000', DAILY_MESSAGES_ENTERPRISE: '100000000' };

interface Load {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  other: number;
  split: CpuSplit | null;
}

/** One round of autocannon (its own process) on `path`; `serverPid` is the gateway's process, for the CPU split. */
async function load(url: string, path: string, key: string, serverPid: number, connections: number, post?: unknown): Promise<Load> {
  const cpu = measureCpu();
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    [
      '--json',
      '-d', values.duration!,
      '-c', String(connections),
      '-H', `authorization=Bearer ${key}`,
      ...(post ? ['-m', 'POST', '-H', 'content-type=application/json', '-b', JSON.stringify(post)] : []),
      `${url}${path}`,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const split = cpu(serverPid);
  const result = JSON.parse(stdout);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, ok: result['2xx'], other: result.non2xx + result.errors, split };
}

/** A gateway as users run it, its admin's key, and `names.length` instances paired through the sandbox. */
async function startWithInstances(storage: Record<string, string>, names: string[], cleanup: Array<() => Promise<void>>, cwd?: string) {
  const started = await startGateway(storage, cleanup, cwd);
  const api = client(started.url);
  const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' });
  const instances = [];
  for (const name of names) instances.push(await connectedV1Instance(api, key, name));
  return { started, key, instances };
}

/** `npm start` on `storage`, stopped by `cleanup` too when the bench fails before it stops it. */
async function startGateway(storage: Record<string, string>, cleanup: Array<() => Promise<void>>, cwd?: string) {
  const started = await npmStart({ ...storage, ...ADMIN, ...LIMITS }, { cwd });
  cleanup.push(() => started.stop());
  return started;
}

let storages = 0;

/** Storage of one mode's gateway: a data folder, and with PostgreSQL a database of its own. */
async function storageOf(mode: string, cleanup: Array<() => Promise<void>>): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-bench-conv-'));
  cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (!mode.includes('PostgreSQL')) return { DATA_DIR: dataDir };
  const database = await createTestDatabase();
  cleanup.push(database.drop);
  return { DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbench:${process.pid}:${++storages}:` };
}

const ms = (n: number) => `${Math.round(n)} ms`;
/** CPU a request cost the gateway and PostgreSQL: steadier than rates on a machine others share. */
const perRequest = (l: Load) => (l.split && l.rps ? `${((1000 * l.split.server) / l.rps).toFixed(2)} / ${((1000 * l.split.postgres) / l.rps).toFixed(2)}` : '-');
const goal = (p99: number) => (p99 <= GOAL_P99_MS ? 'met' : 'MISSED');

/**
 * The read measures: the chat list's first page and a page of 50 halfway down the deep chat, with a cheap
 * authenticated GET of the same instance as the machine's floor, the three in alternating order each round.
 */
async function measureReads(mode: string, cleanup: Array<() => Promise<void>>) {
  const storage = await storageOf(mode, values.keep ? [] : cleanup);
  if (values.keep) console.log(`${mode}: the seeded data is kept: ${storage.DATABASE_URL || storage.DATA_DIR}`);
  const made = await startWithInstances(storage, ['read line'], cleanup, CHECKOUT);
  const instance = made.instances[0]!;
  await made.started.stop();
  const where = { databaseUrl: storage.DATABASE_URL || undefined, dataDir: storage.DATA_DIR! };
  const shape = { chats: Number(values.chats), messages: Number(values.messages), deep: Number(values.deep) };
  console.log(`${mode}: seeding ${shape.chats} chats, ${shape.messages} messages (${shape.deep} in one chat)…`);
  const seeded = await seedConversations(where, { id: instance.id, phone: instance.phone }, shape, (line) => console.log(`  ${line}`));
  console.log(`${mode}: seeded in ${seeded.seconds.toFixed(1)} s`);

  const started = await startGateway(storage, cleanup, CHECKOUT);
  try {
    const api = client(started.url);
    const paths = {
      floor: `/v1/chat/instances/${instance.id}`,
      'chat list, first page': `/v1/chat/instances/${instance.id}/chats?limit=20`,
      'messages, 50 deep in the chat': `/v1/chat/instances/${instance.id}/chats/${DEEP_CHAT}/messages?before=${seeded.deepCursor}&limit=50`,
    };
    // Each answers what it should before it is measured: a fast error would make a fine figure.
    const list = await api.get(paths['chat list, first page'], { key: made.key });
    const page = await api.get(paths['messages, 50 deep in the chat'], { key: made.key });
    if (list.status !== 200 || list.body.data?.length !== 20) throw new Error(`chat list: ${list.status} ${list.text.slice(0, 300)}`);
    if (page.status !== 200 || page.body.data?.length !== 50) throw new Error(`messages: ${page.status} ${page.text.slice(0, 300)}`);
    // Warm-up: the gateway's code compiled and the database's pages read once, as on a server that has served a while.
    for (const path of Object.values(paths)) await load(started.url, path, made.key, started.pid, READERS).catch(() => undefined);
    const rows: Array<Record<string, string | number>> = [];
    const floors: number[] = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      const entries = Object.entries(paths);
      for (const [name, path] of round % 2 ? entries : entries.reverse()) {
        const measured = await load(started.url, path, made.key, started.pid, READERS);
        if (name === 'floor') floors.push(measured.p99);
        rows.push({
          round,
          request: name,
          'req/s': Math.round(measured.rps),
          'p50 ms': measured.p50,
          'p99 ms': measured.p99,
          'max ms': measured.max,
          goal: name === 'floor' ? '-' : `${goal(measured.p99)} (≤ ${GOAL_P99_MS})`,
          'non-2xx': measured.other,
          'CPU ms a request: gateway / PostgreSQL': perRequest(measured),
          'cores: gateway / PostgreSQL / Redis / rest (busy of all)': formatSplit(measured.split),
        });
      }
    }
    console.log(`${mode}: reads, ${READERS} concurrent readers, ${values.duration} s per request and round (floor: GET the instance):`);
    console.table(rows);
  } finally {
    await started.stop();
  }
}

/**
 * History ingest: the built gateway in a process of its own (npm start's node flags) given the batches
 * through its engine events port (`history-feed.mjs`), on a freshly paired instance.
 */
async function measureHistory(mode: string, cleanup: Array<() => Promise<void>>) {
  const storage = await storageOf(mode, cleanup);
  const made = await startWithInstances(storage, ['history line'], cleanup, CHECKOUT);
  await made.started.stop();
  const embedded = !storage.DATABASE_URL;
  const profile = process.env.BENCH_GATEWAY_CPU_PROFILE;
  const args = ['--enable-source-maps', ...(embedded ? ['--max-semi-space-size=4'] : []), ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), FEED];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      ...storage,
      ...ADMIN,
      ...LIMITS,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      MALLOC_ARENA_MAX: '2',
      HISTORY_INSTANCE_ID: made.instances[0]!.id,
      HISTORY_BATCHES: values['history-batches'],
      HISTORY_PER_BATCH: values['history-per-batch'],
      HISTORY_CHATS_PER_BATCH: values['history-chats-per-batch'],
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    // The feed loads the build under test's dist/.
    ...(CHECKOUT ? { cwd: CHECKOUT } : {}),
  });
  // The machine's CPU split over the timed batches alone: the feed says when its clock starts.
  let cpu: ((pid: number) => CpuSplit | null) | undefined;
  let split: CpuSplit | null = null;
  let result: { messages: number; stored: number; seconds: number; batchP50: number; batchP99: number; batchMax: number; cpuSeconds: number } | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'timing') cpu = measureCpu();
    else if (line.startsWith('{')) {
      split = cpu?.(child.pid!) ?? null;
      result = JSON.parse(line);
    }
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0 || !result) throw new Error(`history feed exited with ${code}`);
  const rate = result.messages / result.seconds;
  const target = embedded ? 2000 : 5000;
  console.log(
    `${mode}: history ingest, ${values['history-batches']} batches of ${values['history-per-batch']} messages over ${values['history-chats-per-batch']} chats: ` +
      `${Math.round(rate)} messages/s (goal ≥ ${target}: ${rate >= target ? 'met' : 'MISSED'}), ${result.stored} stored with the warm-up's, ` +
      `a batch p50 ${ms(result.batchP50)}, p99 ${ms(result.batchP99)}, max ${ms(result.batchMax)}; ${((1000 * result.cpuSeconds) / result.messages).toFixed(3)} ms of the process's CPU a message; ` +
      `cores: gateway / PostgreSQL / Redis / rest (busy of all) ${formatSplit(split)}`,
  );
}

/** A built checkout of `commit` in the temporary folder (kept: the next run reuses it), node_modules shared with this one. */
async function baselineCheckout(commit: string): Promise<string> {
  const dir = join(tmpdir(), `mgw-bench-baseline-${commit}`);
  if (!existsSync(join(dir, 'package.json'))) {
    await run('git', ['clone', '--quiet', '--no-checkout', resolve('.'), dir]);
    await run('git', ['-C', dir, 'checkout', '--quiet', commit]);
    symlinkSync(realpathSync('node_modules'), join(dir, 'node_modules'));
  }
  console.log(`baseline: ${commit} in ${dir}, building if needed…`);
  await run(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  return dir;
}

/**
 * Sends (POST /v1/messages/send, as `npm run bench` sends) on this build and on the baseline build, each on
 * storage of its own, in alternating rounds: the ratio of each round and of the sums.
 */
async function measureSends(mode: string, baseline: string, cleanup: Array<() => Promise<void>>) {
  const now = { name: 'now', ...(await startWithInstances(await storageOf(mode, cleanup), ['send line'], cleanup, CHECKOUT)) };
  const before = { name: 'baseline', ...(await startWithInstances(await storageOf(mode, cleanup), ['send line'], cleanup, baseline)) };
  const gateways: Array<typeof now> = [now, before];
  const connections = Number(values['send-connections']);
  const body = { to: '5511987654321', text: 'benchmark message' };
  const sums = { now: 0, baseline: 0 };
  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const g of gateways) await load(g.started.url, '/v1/messages/send', g.key, g.started.pid, connections, body);
    for (let round = 1; round <= Number(values.rounds); round++) {
      const figures: Record<string, Load> = {};
      for (const g of round % 2 ? gateways : [...gateways].reverse()) {
        figures[g.name] = await load(g.started.url, '/v1/messages/send', g.key, g.started.pid, connections, body);
        sums[g.name as 'now'] += figures[g.name]!.rps;
      }
      for (const g of gateways) {
        const f = figures[g.name]!;
        rows.push({ round, build: g.name, 'req/s': Math.round(f.rps), 'p50 ms': f.p50, 'p99 ms': f.p99, 'non-2xx': f.other, 'now ÷ baseline': g.name === 'now' ? `${((100 * f.rps) / figures.baseline!.rps).toFixed(1)} %` : '-', 'CPU ms a request: gateway / PostgreSQL': perRequest(f), 'cores: gateway / PostgreSQL / Redis / rest (busy of all)': formatSplit(f.split) });
      }
    }
  } finally {
    for (const g of gateways) await g.started.stop();
  }
  const ratio = (100 * sums.now) / sums.baseline;
  console.log(`${mode}: POST /v1/messages/send, ${connections} connections, ${values.duration} s per build and round; now ÷ baseline over all rounds ${ratio.toFixed(1)} % (goal ≥ 95 %: ${ratio >= 95 ? 'met' : 'MISSED'}):`);
  console.table(rows);
}

const MODES = ['embedded (PGlite)', 'PostgreSQL + Redis'];
const chosen = MODES.filter((name) => !values.mode || name.includes(values.mode) || (values.mode === 'PGlite' && name.includes('embedded')));
await buildIfChanged();
if (CHECKOUT) await run(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: CHECKOUT, maxBuffer: 64 * 1024 * 1024 });
const baseline = values.baseline ?? (values['baseline-commit'] ? await baselineCheckout(values['baseline-commit']) : undefined);
const cleanup: Array<() => Promise<void>> = [];
/** Runs one measure with storage of its own, dropped as soon as it ends: a seeded database left behind would be vacuumed under the next measure. */
async function measure(work: (cleanup: Array<() => Promise<void>>) => Promise<void>) {
  const own: Array<() => Promise<void>> = [];
  cleanup.push(async () => {
    for (const step of own.reverse()) await step().catch(() => {});
  });
  try {
    await work(own);
  } finally {
    for (const step of own.splice(0).reverse()) await step().catch(() => {});
  }
}

try {
  // Sends first, on a cluster not yet busy with the seeded data's writes.
  for (const mode of chosen) {
    if (!skip.has('sends')) {
      if (baseline) await measure((own) => measureSends(mode, baseline, own));
      else console.log(`${mode}: sends not measured (no --baseline or --baseline-commit)`);
    }
    if (!skip.has('history')) await measure((own) => measureHistory(mode, own));
    if (!skip.has('reads')) await measure((own) => measureReads(mode, own));
  }
} finally {
  for (const step of cleanup.reverse()) await step().catch(() => {});
}
process.exit(0);
