/**
 * Does the retention sweep hold requests? Sends in alternating rounds, without a sweep and during one
 * (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:retention [-- --rows 100000 --duration 15 --connections 20 --rounds 2]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { connectedV1Instance, sleep } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { freePort } from '../kit/process.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
  },
});
const ROWS = Number(values.rows);
const run = promisify(execFile);
const ADMIN = {
  GATEWAY_ADMIN_EMAIL: 'retention@example.com',
  GATEWAY_ADMIN_PASSWORD: 'retention-password',
  GATEWAY_ADMIN_PLAN: 'enterprise',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_PER_HOUR: '10000000',
  RATE_LIMIT_BURST: '10000',
  DAILY_MESSAGES_ENTERPRISE: '100000000',
};

await run(process.execPath, ['scripts/build-if-changed.mjs']);
const database = await createTestDatabase();
const port = await freePort();
// A day of message retention; a short connection retention makes the sweep pass every 5 s.
const gateway: ChildProcess = spawn('npm', ['start', '--silent'], {
  env: { ...process.env, ...ADMIN, DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `bench-retention-${port}:`, RETENTION_MESSAGES: '1d', RETENTION_CONNECTIONS: '10s', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port) },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
const url = `http://127.0.0.1:${port}`;
const db = new pg.Client({ connectionString: database.url });
try {
  for (;;) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) break;
    if (gateway.exitCode !== null) throw new Error('the gateway did not start');
    await sleep(50);
  }
  await db.connect();
  const api = client(url);
  const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'retention bench' });
  const instance = await connectedV1Instance(api, key, 'retention bench');

  /** `ROWS` delivered messages of two days ago, with time-ordered ids of that time, as the gateway writes them. */
  async function seed() {
    await db.query(
      `INSERT INTO "Message" (id, "tenantId", "instanceId", direction, "to", type, text, status, mode, "createdAt", "updatedAt")
       SELECT overlay(overlay(md5(random()::text || g) placing lpad(to_hex(t.ms + g), 12, '0') from 1 for 12) placing '7' from 13 for 1)::uuid,
              i."tenantId", i.id, 'out', '5511987654321', 'text', 'an old message of the seeded past', 'delivered', 'production', t.at, t.at
       FROM "Instance" i, generate_series(1, $2::int) g,
            LATERAL (SELECT now() - interval '2 days' AS at, (extract(epoch FROM now() - interval '2 days') * 1000)::bigint AS ms) t
       WHERE i.id = $1::uuid`,
      [instance.id, ROWS],
    );
    await db.query('ANALYZE "Message"');
  }

  async function sweepMetrics() {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+-]+)`, 'm').exec(text)?.[1] ?? NaN);
    return { deleted: value('mgw_retention_deleted_rows_total\\{table="Message"\\}'), last: value('mgw_retention_last_run_timestamp_seconds'), seconds: value('mgw_retention_last_run_duration_seconds') };
  }

  async function load() {
    const { stdout } = await run(
      join('node_modules', '.bin', 'autocannon'),
      ['--json', '-d', values.duration!, '-c', values.connections!, '-m', 'POST', '-H', `authorization=Bearer ${key}`, '-H', 'content-type=application/json', '-b', JSON.stringify({ to: '5511987654321', text: 'benchmark message' }), `${url}/v1/messages/send`],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout);
    return { rps: result.requests.average as number, p50: result.latency.p50 as number, p99: result.latency.p99 as number, max: result.latency.max as number, errors: (result.non2xx as number) + (result.errors as number) };
  }

  const rows: string[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const withSweep of round % 2 === 0 ? [false, true] : [true, false]) {
      const before = await sweepMetrics();
      if (withSweep) await seed();
      const result = await load();
      // The sweep's figures once it has deleted what was seeded (its pass may end after the load).
      let after = await sweepMetrics();
      const deadline = Date.now() + 300_000;
      while (withSweep && after.deleted - (before.deleted || 0) < ROWS && Date.now() < deadline) {
        await sleep(500);
        after = await sweepMetrics();
      }
      const swept = withSweep ? `swept ${after.deleted - (before.deleted || 0)} rows, last pass ${after.seconds.toFixed(2)} s` : 'no sweep';
      rows.push(`| ${withSweep ? `sweeping ${ROWS}` : 'baseline'} | ${result.rps.toFixed(0)} | ${result.p50} | ${result.p99} | ${result.max} | ${result.errors} | ${swept} |`);
      console.log(rows.at(-1));
    }
  }
  console.log(`\n| round | req/s | p50 ms | p99 ms | max ms | non-2xx | sweep |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}`);
} finally {
  await db.end().catch(() => {});
  if (gateway.exitCode === null && gateway.pid) {
    process.kill(-gateway.pid, 'SIGTERM');
    await new Promise((resolve) => gateway.once('exit', resolve));
  }
  await database.drop();
}
