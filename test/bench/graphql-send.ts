/**
 * GraphQL `sendMessage` against REST send on the same gateway, in the same run (goal: GraphQL at least 85 % of
 * REST), with the CPU a request costs (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:graphql [-- --duration 10 --connections 50 --rounds 1 --mode embedded|PostgreSQL]
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connectedV1Instance } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { buildIfChanged, cpuSeconds, metricOf, npmStart, scrape, threadCpuSeconds } from './as-users-run-it.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    mode: { type: 'string', default: '' },
  },
});
const run = promisify(execFile);

const SEND = 'mutation ($input: SendMessageInput!) { sendMessage(input: $input) { message { id status } userErrors { code } } }';

async function load(pid: number, url: string, key: string, body: unknown, duration: string) {
  const cpuBefore = cpuSeconds(pid);
  const threadsBefore = threadCpuSeconds(pid);
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    ['--json', '-d', duration, '-c', values.connections!, '-m', 'POST', '-H', `authorization=Bearer ${key}`, '-H', 'content-type=application/json', '-b', JSON.stringify(body), url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const cpu = cpuSeconds(pid) - cpuBefore;
  const threads = threadSplit(pid, threadsBefore, threadCpuSeconds(pid));
  const result = JSON.parse(stdout);
  if (result.non2xx || result.errors) console.warn(`${url}: answers by status ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
  return {
    rps: result.requests.average as number,
    p50: result.latency.p50 as number,
    p99: result.latency.p99 as number,
    ok: result['2xx'] as number,
    failed: (result.non2xx as number) + (result.errors as number),
    cpu,
    threads,
    requests: result.requests.total as number,
  };
}

/**
 * The CPU of a run by thread: the main thread (HTTP, GraphQL, the domain), the busiest other one
 * (embedded, the database's thread) and the rest together (V8's garbage collection and compilation
 * helpers, libuv's pool).
 */
function threadSplit(pid: number, before: Map<number, number>, after: Map<number, number>) {
  const others = [...after].filter(([tid]) => tid !== pid).map(([tid, seconds]) => seconds - (before.get(tid) ?? 0)).sort((a, b) => b - a);
  return { main: after.get(pid)! - before.get(pid)!, busiest: others[0] ?? 0, rest: others.slice(1).reduce((sum, seconds) => sum + seconds, 0) };
}

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'bench@example.com', GATEWAY_ADMIN_PASSWORD: 'bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };

async function bench(mode: { name: string; storage: Record<string, string> }) {
  const gw = await npmStart({ ...mode.storage, ...ADMIN, DAILY_MESSAGES_ENTERPRISE: '100000000', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000',
    // 50 connections hold 50 requests in flight: under the default burst (10) most answers would be refusals.
    RATE_LIMIT_BURST: '1000',
  });
  try {
    const api = client(gw.url);
    const tenant = { liveKey: await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' }) };
    await connectedV1Instance(api, tenant.liveKey, 'bench line');
    const rest = { url: `${gw.url}/v1/messages/send`, body: { to: '5511987654321', text: 'benchmark message' } };
    const graphql = { url: `${gw.url}/graphql`, body: { query: SEND, variables: { input: rest.body } } };
    await load(gw.pid, rest.url, tenant.liveKey, rest.body, '2');
    await load(gw.pid, graphql.url, tenant.liveKey, graphql.body, '2');
    const runs = { rest: [] as Awaited<ReturnType<typeof load>>[], graphql: [] as Awaited<ReturnType<typeof load>>[] };
    // REST, GraphQL, GraphQL, REST: each side runs as often first as second, so whatever drifts over
    // the run (the tables growing, a neighbour's load) weighs on both alike.
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const api of ['rest', 'graphql', 'graphql', 'rest'] as const) {
        const side = api === 'rest' ? rest : graphql;
        runs[api].push(await load(gw.pid, side.url, tenant.liveKey, side.body, values.duration!));
      }
    }
    // Every 2xx must be a stored message: a GraphQL typed error is also a 200.
    const stored = metricOf(await scrape(gw.url), 'mgw_messages');
    const answered = [...runs.rest, ...runs.graphql].reduce((n, r) => n + r.ok, 0);
    const mean = (list: Array<{ rps: number }>) => list.reduce((n, r) => n + r.rps, 0) / list.length;
    const perRequest = (list: Awaited<ReturnType<typeof load>>[], cpu: (r: Awaited<ReturnType<typeof load>>) => number) =>
      Math.round((list.reduce((n, r) => n + cpu(r), 0) / list.reduce((n, r) => n + r.requests, 0)) * 1e6);
    const cpuPerRequest = (list: Awaited<ReturnType<typeof load>>[]) => perRequest(list, (r) => r.cpu);
    const row = (name: string, list: Awaited<ReturnType<typeof load>>[]) => ({
      mode: mode.name,
      api: name,
      [`req/s (mean of ${list.length})`]: Math.round(mean(list)),
      'by run': list.map((r) => Math.round(r.rps)).join(' '),
      'CPU µs/req': cpuPerRequest(list),
      'main thread': perRequest(list, (r) => r.threads.main),
      'busiest other': perRequest(list, (r) => r.threads.busiest),
      'the rest': perRequest(list, (r) => r.threads.rest),
      'p50 ms': Math.max(...list.map((r) => r.p50)),
      'p99 ms': Math.max(...list.map((r) => r.p99)),
      failed: list.reduce((n, r) => n + r.failed, 0),
    });
    return {
      rows: [row('REST', runs.rest), row('GraphQL', runs.graphql)],
      ratio: mean(runs.graphql) / mean(runs.rest),
      cpuRatio: cpuPerRequest(runs.rest) / cpuPerRequest(runs.graphql),
      stored,
      answered,
    };
  } finally {
    await gw.stop();
  }
}

await buildIfChanged();
const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-graphql-'));
const database = await createTestDatabase();
const embeddedStorage: Record<string, string> = { DATA_DIR: join(dir, 'embedded') };
const MODES: Array<{ name: string; storage: Record<string, string> }> = [
  { name: 'embedded (PGlite)', storage: embeddedStorage },
  { name: 'PostgreSQL + Redis', storage: { DATA_DIR: join(dir, 'postgres'), DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchgql:${randomBytes(4).toString('hex')}:` } },
].filter((m) => !values.mode || m.name.includes(values.mode));
for (const mode of MODES) {
  const result = await bench(mode);
  console.log(`${mode.name}: sendMessage, ${values.connections} connections, ${values.duration} s per run`);
  console.table(result.rows);
  console.log(`GraphQL / REST: ${(result.ratio * 100).toFixed(1)} % (goal ≥ 85 %); 2xx answers ${result.answered}, messages stored ${result.stored}`);
  console.log(`REST's CPU per request ÷ GraphQL's: ${(result.cpuRatio * 100).toFixed(1)} % (the rate GraphQL would reach were the gateway's CPU the only limit)`);
  // The warm-ups store messages too, so fewer stored than answered means some 200s were refusals.
  if (result.stored < result.answered) console.warn(`${mode.name}: fewer messages stored than 2xx answers; the ratio above counts refusals and means nothing`);
}
rmSync(dir, { recursive: true, force: true });
await database.drop();
process.exit(0);
