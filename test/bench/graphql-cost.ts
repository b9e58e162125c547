/**
 * One caller cannot hurt the others: a bystander tenant's latency while another fires queries the cost guard
 * refuses (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:graphql-cost [-- --duration 10 --rounds 2 --connections 10 --mode embedded|PostgreSQL]
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { connectedV1Instance } from '../factories/sandbox.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { buildIfChanged, cpuSeconds, npmStart, rssMb } from './as-users-run-it.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    // B's connections; A holds RATE_LIMIT_BURST (10, the default) requests in flight.
    connections: { type: 'string', default: '10' },
    mode: { type: 'string', default: '' },
  },
});
const run = promisify(execFile);
const ATTACKER_CONNECTIONS = 10;

const nested = 'messages(first: $n) { edges { node { id text to status instance { id messages(first: $n) { edges { node { id text to status } } } } } } }';
const ATTACK = { query: `query ($n: Int) { ${Array.from({ length: 15 }, (_, i) => `a${i}: ${nested}`).join(' ')} }`, variables: { n: 100 } };
const CHEAP = { query: 'query { __typename }' };

async function cli(env: Record<string, string>, args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, ['dist/cli.js', ...args], { env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env, LOG_LEVEL: 'warn' } });
  return JSON.parse(stdout);
}

async function tenantKey(env: Record<string, string>, name: string): Promise<string> {
  const tenant = await cli(env, ['tenant:create', '--name', name, '--plan', 'enterprise']);
  return (await cli(env, ['key:create', '--tenant', tenant.id, '--name', name])).key;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, { count: number }>;
  requests: number;
}

async function autocannon(args: string[], duration: string): Promise<Load> {
  const { stdout } = await run(join('node_modules', '.bin', 'autocannon'), ['--json', '-d', duration, ...args], { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    statuses: result.statusCodeStats ?? {},
    requests: result.requests.total,
  };
}

async function bench(mode: { name: string; storage: Record<string, string> }) {
  // Made before the start: an embedded data folder belongs to one process at a time.
  const keyA = await tenantKey(mode.storage, 'attacker');
  const keyB = await tenantKey(mode.storage, 'bystander');
  const gw = await npmStart({
    ...mode.storage,
    DAILY_MESSAGES_ENTERPRISE: '100000000',
    // Per-minute and per-hour windows out of the way, so every one of A's requests reaches GraphQL;
    // the in-flight limit (RATE_LIMIT_BURST, 10) stays as users run it.
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '10000000',
  });
  try {
    const api = client(gw.url);
    await connectedV1Instance(api, keyA, 'attacker line');
    for (let i = 0; i < 100; i++) await api.post('/v1/messages/send', { key: keyA, body: { to: '5511987654321', text: `message ${i}` } });
    for (let i = 0; i < 5; i++) await api.post('/v1/chat/instances', { key: keyB, body: { name: `bystander ${i}` } });
    const refused = await api.graphql(ATTACK.query, ATTACK.variables, { key: keyA });
    const code = refused.body.errors?.[0]?.extensions;
    if (refused.body.data !== undefined || code?.limit !== 'cost') throw new Error(`the attack was not refused: ${JSON.stringify(refused.body).slice(0, 300)}`);

    const bystander = (duration: string) =>
      autocannon(['-c', values.connections!, '-H', `authorization=Bearer ${keyB}`, `${gw.url}/v1/chat/instances`], duration);
    const attacker = (body: unknown, duration: string) =>
      autocannon(['-c', String(ATTACKER_CONNECTIONS), '-m', 'POST', '-H', `authorization=Bearer ${keyA}`, '-H', 'content-type=application/json', '-b', JSON.stringify(body), `${gw.url}/graphql`], duration);

    await bystander('2');
    await attacker(ATTACK, '2');
    await attacker(CHEAP, '2');
    type Side = 'alone' | 'refused' | 'cheap';
    const runs: Record<Side, Array<{ b: Load; a?: Load; cpu: number }>> = { alone: [], refused: [], cheap: [] };
    const rss: Record<Side, number[]> = { alone: [], refused: [], cheap: [] };
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const side of ['alone', 'refused', 'cheap', 'cheap', 'refused', 'alone'] as const) {
        const cpu = cpuSeconds(gw.pid);
        const [b, a] = await Promise.all([bystander(values.duration!), side === 'alone' ? undefined : attacker(side === 'refused' ? ATTACK : CHEAP, values.duration!)]);
        runs[side].push({ b, a, cpu: cpuSeconds(gw.pid) - cpu });
        rss[side].push(rssMb(gw.pid));
      }
    }
    const sum = (list: Load[]) => {
      const statuses: Record<string, number> = {};
      for (const r of list) for (const [status, { count }] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
      return JSON.stringify(statuses);
    };
    const mean = (list: number[]) => list.reduce((n, v) => n + v, 0) / list.length;
    const row = (side: Side, name: string) => {
      const list = runs[side];
      const b = list.map((r) => r.b);
      const a = list.flatMap((r) => (r.a ? [r.a] : []));
      const requests = list.reduce((n, r) => n + r.b.requests + (r.a?.requests ?? 0), 0);
      return {
        "A's load": name,
        "B's req/s": Math.round(mean(b.map((r) => r.rps))),
        "B's p50 ms": b.map((r) => r.p50).join(' '),
        "B's p99 ms": b.map((r) => r.p99).join(' '),
        "B's max ms": Math.max(...b.map((r) => r.max)),
        "B's statuses": sum(b),
        "A's req/s": a.length ? Math.round(mean(a.map((r) => r.rps))) : '',
        "A's p99 ms": a.length ? Math.max(...a.map((r) => r.p99)) : '',
        "A's statuses": a.length ? sum(a) : '',
        'gateway CPU s/s': (list.reduce((n, r) => n + r.cpu, 0) / (list.length * Number(values.duration))).toFixed(2),
        'CPU µs/req': Math.round((list.reduce((n, r) => n + r.cpu, 0) / requests) * 1e6),
        'RSS MB after': rss[side].map(Math.round).join(' '),
      };
    };
    return { rows: [row('alone', 'none'), row('refused', 'refused queries'), row('cheap', '{ __typename }')], refusal: code };
  } finally {
    await gw.stop();
  }
}

await buildIfChanged();
const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-graphql-cost-'));
const database = await createTestDatabase();
const MODES: Array<{ name: string; storage: Record<string, string> }> = [
  { name: 'embedded (PGlite)', storage: { DATA_DIR: join(dir, 'embedded') } as Record<string, string> },
  { name: 'PostgreSQL + Redis', storage: { DATA_DIR: join(dir, 'postgres'), DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchcost:${randomBytes(4).toString('hex')}:` } },
].filter((m) => !values.mode || m.name.includes(values.mode));
for (const mode of MODES) {
  const result = await bench(mode);
  console.log(`${mode.name}: B with ${values.connections} connections; A with ${ATTACKER_CONNECTIONS}; ${values.duration} s per run`);
  console.table(result.rows);
  console.log('the refusal:', JSON.stringify(result.refusal));
}
rmSync(dir, { recursive: true, force: true });
await database.drop();
process.exit(0);
