/**
 * What an idle gateway costs, as `npm start` runs it, in both modes: time from `npm start` to
 * `/readyz` 200 on an existing data directory; then CPU (share of one core, from /proc) and database
 * round trips over a quiet window with no instances at all, and again with 50 connected sandbox
 * instances and nothing to send. Round trips are read from GET /metrics (the scrape's own are taken
 * out); with PostgreSQL the server's own count of transactions is shown beside them.
 * Usage: npm run bench:idle [-- --seconds 60 --settle 30 --instances 50 --mode PostgreSQL|embedded]
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

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    settle: { type: 'string', default: '30' },
    instances: { type: 'string', default: '50' },
    mode: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
/** Before each window: what follows start (or pairing) is over, the collector's post-start work included. */
const SETTLE_MS = Number(values.settle) * 1000;
const INSTANCES = Number(values.instances);
const ADMIN = { GATEWAY_ADMIN_EMAIL: 'idle@example.com', GATEWAY_ADMIN_PASSWORD: 'idle-password', GATEWAY_ADMIN_PLAN: 'enterprise', RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_HOUR: '1000000' };
const TICKS_PER_SECOND = 100;

await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs']);

interface Started {
  url: string;
  child: ChildProcess;
  /** The gateway's own process (npm runs it as a child). */
  pid: number;
  readyMs: number;
}

/** `npm start` as a user runs it, timed until /readyz answers 200. */
async function npmStart(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, ...env, ...ADMIN, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) break;
    if (child.exitCode !== null) throw new Error('the gateway did not start');
    await sleep(20);
  }
  const readyMs = performance.now() - started;
  // `npm start` ends in `exec node dist/main.js`: the gateway is npm's shell's process, or its child.
  const pid = gatewayPid(child.pid!);
  return { url, child, pid, readyMs };
}

function gatewayPid(root: number): number {
  const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  const childrenOf = (pid: number) =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    if (commandOf(pid).includes('dist/main.js')) return pid;
    queue.push(...childrenOf(pid));
  }
  throw new Error('no gateway process under npm start');
}

async function stop(started: Started) {
  process.kill(-started.child.pid!, 'SIGTERM');
  await new Promise((resolve) => started.child.once('exit', resolve));
}

const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

async function roundTrips(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^mgw_database_round_trips_total (\d+)/m.exec(text)?.[1] ?? NaN);
}

/** CPU and round trips over the window, the scrapes' own round trips taken out. */
async function quietWindow(started: Started, transactions?: () => Promise<number>) {
  // What one scrape costs: two in a row.
  const a = await roundTrips(started.url);
  const b = await roundTrips(started.url);
  const perScrape = b - a;
  const xactBefore = await transactions?.();
  const trips = await roundTrips(started.url);
  const ticks = cpuTicks(started.pid);
  await sleep(SECONDS * 1000);
  const cpu = ((cpuTicks(started.pid) - ticks) / TICKS_PER_SECOND / SECONDS) * 100;
  const tripsAfter = await roundTrips(started.url);
  const xactAfter = await transactions?.();
  const perMinute = ((tripsAfter - trips - perScrape) * 60) / SECONDS;
  // Within the window: the bench's first reading (counted once it commits) and two scrapes.
  const xactPerMinute = xactBefore === undefined || xactAfter === undefined ? undefined : ((xactAfter - xactBefore - 1 - 2 * perScrape) * 60) / SECONDS;
  return { cpu, perMinute, xactPerMinute };
}

async function pairSandbox(url: string, count: number) {
  const api = client(url);
  const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'idle' });
  for (let n = 0; n < count; n++) {
    const created = await api.post('/v1/chat/instances', { key, body: { name: `idle ${n}` } });
    const id = created.body.data.id as string;
    await api.post('/sandbox/scan', { body: { code: decodeQr(created.body.data.qrCode), phone: `+55119${String(10_000_000 + n).slice(1)}` } });
    await eventually(() => api.get(`/v1/chat/instances/${id}`, { key }), (r) => r.body.data.status === 'connected');
  }
}

async function measure(name: string, storage: Record<string, string>, transactions?: () => Promise<number>) {
  // The data directory (or database) exists and is migrated: what a restart finds.
  await stop(await npmStart(storage));
  const readies: number[] = [];
  let started: Started | undefined;
  for (let n = 0; n < 3; n++) {
    if (started) await stop(started);
    started = await npmStart(storage);
    readies.push(started.readyMs);
  }
  try {
    await sleep(SETTLE_MS);
    const empty = await quietWindow(started!, transactions);
    await pairSandbox(started!.url, INSTANCES);
    await sleep(SETTLE_MS);
    const busy = await quietWindow(started!, transactions);
    const xact = (w: typeof empty) => (w.xactPerMinute === undefined ? '' : `, ${w.xactPerMinute.toFixed(1)} transactions/min on the server`);
    console.log(`\n${name}`);
    console.log(`  npm start → /readyz 200 on an existing data directory: ${readies.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`);
    console.log(`  idle, no instances, ${SECONDS} s: CPU ${empty.cpu.toFixed(2)} % of a core, ${empty.perMinute.toFixed(1)} database round trips/min${xact(empty)}`);
    console.log(`  idle, ${INSTANCES} connected sandbox instances, ${SECONDS} s: CPU ${busy.cpu.toFixed(2)} % of a core, ${busy.perMinute.toFixed(1)} round trips/min${xact(busy)}`);
  } finally {
    await stop(started!);
  }
}

if (values.mode !== 'embedded') {
  const database = await createTestDatabase();
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  const name = new URL(database.url).pathname.slice(1);
  try {
    await measure(
      'PostgreSQL + Redis',
      { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchidle:${randomBytes(4).toString('hex')}:` },
      async () => Number((await sql.query(`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1`, [name])).rows[0].n),
    );
  } finally {
    await sql.end();
    await database.drop();
  }
}
if (values.mode !== 'PostgreSQL') {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-idle-'));
  try {
    await measure('embedded (PGlite)', { DATA_DIR: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(0);
