/**
 * What an idle gateway costs in both modes: start time, then CPU and database round trips with no instances and
 * with connected ones (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:idle [-- --seconds 60 --settle 30 --instances 50 --mode PostgreSQL|embedded]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { decodeQr } from '../../src/infra/qr-decode.js';
import { eventually, sleep } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { buildIfChanged, cpuSeconds, npmStart, type StartedGateway } from './as-users-run-it.js';

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

await buildIfChanged();

/** `npm start` as a user runs it (`as-users-run-it.ts`), with the admin this bench signs in as. */
const start = (storage: Record<string, string>) => npmStart({ ...storage, ...ADMIN });

async function roundTrips(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^mgw_database_round_trips_total (\d+)/m.exec(text)?.[1] ?? NaN);
}

/** CPU and round trips over the window, the scrapes' own round trips taken out. */
async function quietWindow(started: StartedGateway, transactions?: () => Promise<number>) {
  // What one scrape costs: two in a row.
  const a = await roundTrips(started.url);
  const b = await roundTrips(started.url);
  const perScrape = b - a;
  const xactBefore = await transactions?.();
  const trips = await roundTrips(started.url);
  const cpuBefore = cpuSeconds(started.pid);
  await sleep(SECONDS * 1000);
  const cpu = ((cpuSeconds(started.pid) - cpuBefore) / SECONDS) * 100;
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
  await (await start(storage)).stop();
  const readies: number[] = [];
  let started: StartedGateway | undefined;
  for (let n = 0; n < 3; n++) {
    if (started) await started.stop();
    started = await start(storage);
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
    await started!.stop();
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
