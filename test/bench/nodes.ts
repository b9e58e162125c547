/**
 * Several nodes on one PostgreSQL and one Redis: throughput with 1, 2 and 3 nodes, and takeover time after
 * kill -9 (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:nodes [-- --duration 6 --connections 60 --rounds 2 --takeovers 5]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { connectedV1Instance, sleep } from '../factories/sandbox.js';
import { createTenant } from '../factories/tenants.js';
import { freePort } from '../kit/process.js';
import { startTestGateway } from '../kit/gateway.js';
import { client } from '../helpers/http.js';
import { MODES, REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '6' },
    connections: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '2' },
    takeovers: { type: 'string', default: '5' },
  },
});
const run = promisify(execFile);
const INSTANCES = 6;

await run(process.execPath, ['scripts/build-if-changed.mjs']);
const database = await createTestDatabase();
const sql = new pg.Client({ connectionString: database.url });
await sql.connect();
const env = {
  DATABASE_URL: database.url,
  REDIS_URL,
  REDIS_PREFIX: `mgwbenchnodes:${randomBytes(4).toString('hex')}:`,
  LOG_LEVEL: 'warn',
  // Several nodes on one database keep media in one object store or none (docs/media.md, "Stores").
  MEDIA_STORE: 'off',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_PER_HOUR: '10000000',
  RATE_LIMIT_BURST: '10000',
  DAILY_MESSAGES_ENTERPRISE: '100000000',
  SHUTDOWN_DRAIN_MS: '0',
};

interface Node {
  url: string;
  id: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

async function startNode(): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then((r) => (r.ok ? r.json() : undefined), () => undefined);
    if (ready) return { url, id: ready.data.node, child, exited };
    if (child.exitCode !== null) throw new Error('node did not start');
    await sleep(50);
  }
}

async function stop(nodes: Node[], signal: NodeJS.Signals = 'SIGTERM') {
  for (const node of nodes) node.child.kill(signal);
  await Promise.all(nodes.map((node) => node.exited));
}

/** Owners of the instances with an unexpired lease. */
async function owners(): Promise<Array<string | null>> {
  const { rows } = await sql.query(
    `SELECT CASE WHEN l."expiresAt" > now() THEN l.owner END AS owner FROM "Instance" i LEFT JOIN "InstanceLease" l ON l."instanceId" = i.id`,
  );
  return rows.map((row) => row.owner);
}

async function untilOwnedBy(nodes: Node[], timeoutMs = 30_000) {
  const ids = new Set(nodes.map((n) => n.id));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await owners()).every((owner) => owner !== null && ids.has(owner))) return;
    if (Date.now() > deadline) throw new Error('instances not owned by the live nodes in time');
    await sleep(20);
  }
}

async function autocannon(url: string, key: string, connections: number) {
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    ['--json', '-d', values.duration!, '-c', String(connections), '-m', 'POST', '-H', `authorization=Bearer ${key}`, '-H', 'content-type=application/json',
      '-b', JSON.stringify({ to: '5511987654321', text: 'benchmark message' }), `${url}/v1/messages/send`],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout);
  return { rps: result.requests.average as number, p99: result.latency.p99 as number, other: (result.non2xx as number) + (result.errors as number) };
}

async function queued(): Promise<number> {
  const { rows } = await sql.query(`SELECT count(*)::int AS n FROM "Message" WHERE status = 'queued'`);
  return rows[0].n;
}

// A tenant with six instances paired through the sandbox, made by a gateway that then stops.
const setup = await startTestGateway(MODES.find((m) => m.redis)!, { reuse: { env: { DATABASE_URL: database.url } }, env });
const api = client(setup.url);
const tenant = await createTenant(setup.gateway, api, 'enterprise');
for (let i = 0; i < INSTANCES; i++) await connectedV1Instance(api, tenant.liveKey, `bench line ${i}`);
await setup.close();

const bare = spawn(process.execPath, ['--import', 'tsx', 'test/bench/bare-koa.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const bareUrl = await new Promise<string>((resolve) => createInterface({ input: bare.stdout! }).once('line', resolve));

const rows: Array<Record<string, string | number>> = [];
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    const baseline = await autocannon(bareUrl, 'bench', Number(values.connections));
    rows.push({ round, server: 'bare Koa', 'req/s': Math.round(baseline.rps), 'p99 ms': baseline.p99, 'of bare Koa': '100 %', 'non-2xx': baseline.other, 'drained after load': '-' });
    for (const count of [1, 2, 3]) {
      const nodes = await Promise.all(Array.from({ length: count }, startNode));
      await untilOwnedBy(nodes);
      const share = Math.floor(Number(values.connections) / count);
      const results = await Promise.all(nodes.map((node) => autocannon(node.url, tenant.liveKey, share)));
      const loadEnded = Date.now();
      while ((await queued()) > 0 && Date.now() - loadEnded < 60_000) await sleep(50);
      const rps = results.reduce((sum, r) => sum + r.rps, 0);
      rows.push({
        round,
        server: `${count} node${count > 1 ? 's' : ''}`,
        'req/s': Math.round(rps),
        'p99 ms': Math.max(...results.map((r) => r.p99)),
        'of bare Koa': `${((100 * rps) / baseline.rps).toFixed(1)} %`,
        'non-2xx': results.reduce((sum, r) => sum + r.other, 0),
        'drained after load': `${Date.now() - loadEnded} ms`,
      });
      await stop(nodes);
    }
  }

  // Takeover after kill -9: until every instance is owned by a surviving node.
  const takeovers: number[] = [];
  for (let i = 0; i < Number(values.takeovers); i++) {
    const nodes = await Promise.all(Array.from({ length: 3 }, startNode));
    await untilOwnedBy(nodes);
    const counts = new Map<string, number>();
    for (const owner of await owners()) counts.set(owner!, (counts.get(owner!) ?? 0) + 1);
    const victim = [...nodes].sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0))[0]!;
    const killedAt = performance.now();
    await stop([victim], 'SIGKILL');
    const survivors = nodes.filter((n) => n !== victim);
    await untilOwnedBy(survivors);
    takeovers.push(performance.now() - killedAt);
    await stop(survivors);
  }
  takeovers.sort((a, b) => a - b);
  console.log(`POST /v1/messages/send, ${values.connections} connections split over the nodes, ${values.duration} s per server and round, ${INSTANCES} instances:`);
  console.table(rows);
  console.log(
    `takeover after kill -9 of the busiest of 3 nodes (${takeovers.length} runs): median ${Math.round(takeovers[Math.floor(takeovers.length / 2)]!)} ms, ` +
      `max ${Math.round(takeovers[takeovers.length - 1]!)} ms (all: ${takeovers.map((t) => Math.round(t)).join(', ')} ms)`,
  );
} finally {
  bare.kill('SIGTERM');
  await sql.end();
  await database.drop();
}
process.exit(0);
