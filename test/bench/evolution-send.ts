/**
 * Evolution's `POST /message/sendText/<name>` against `POST /v1/messages/send` through the same
 * instance, on one gateway in one run (goal: Evolution at least 90 % of REST; docs/evolution.md).
 * Usage: npm run bench:evolution [-- --duration 10 --connections 50 --rounds 1 --mode embedded|PostgreSQL]
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
import { buildIfChanged, cpuSeconds, metricOf, npmStart, scrape } from './as-users-run-it.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    mode: { type: 'string', default: '' },
  },
});
const run = promisify(execFile);

interface Side {
  url: string;
  header: string;
  body: unknown;
}

async function load(pid: number, side: Side, duration: string) {
  const cpuBefore = cpuSeconds(pid);
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    ['--json', '-d', duration, '-c', values.connections!, '-m', 'POST', '-H', side.header, '-H', 'content-type=application/json', '-b', JSON.stringify(side.body), side.url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const cpu = cpuSeconds(pid) - cpuBefore;
  const result = JSON.parse(stdout);
  if (result.non2xx || result.errors) console.warn(`${side.url}: answers by status ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
  return { rps: result.requests.average as number, p99: result.latency.p99 as number, ok: result['2xx'] as number, requests: result.requests.total as number, cpu };
}

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'bench@example.com', GATEWAY_ADMIN_PASSWORD: 'bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };

async function bench(mode: { name: string; storage: Record<string, string> }) {
  const gw = await npmStart({ ...mode.storage, ...ADMIN, COMPAT_EVOLUTION: 'true', DAILY_MESSAGES_ENTERPRISE: '100000000', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000', RATE_LIMIT_BURST: '1000' });
  try {
    const api = client(gw.url);
    const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' });
    const name = 'bench-line';
    const instance = await connectedV1Instance(api, key, name);
    const rest: Side = { url: `${gw.url}/v1/messages/send`, header: `authorization=Bearer ${key}`, body: { to: '5511987654321', text: 'benchmark message', instanceId: instance.id } };
    const evolution: Side = { url: `${gw.url}/message/sendText/${name}`, header: `apikey=${key}`, body: { number: '5511987654321', text: 'benchmark message' } };
    await load(gw.pid, rest, '2');
    await load(gw.pid, evolution, '2');
    const runs = { rest: [] as Awaited<ReturnType<typeof load>>[], evolution: [] as Awaited<ReturnType<typeof load>>[] };
    // REST, Evolution, Evolution, REST: each side runs as often first as second.
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const side of ['rest', 'evolution', 'evolution', 'rest'] as const) runs[side].push(await load(gw.pid, side === 'rest' ? rest : evolution, values.duration!));
    }
    const stored = metricOf(await scrape(gw.url), 'mgw_messages');
    const mean = (list: Array<{ rps: number }>) => list.reduce((n, r) => n + r.rps, 0) / list.length;
    const cpuPerRequest = (list: Awaited<ReturnType<typeof load>>[]) => Math.round((list.reduce((n, r) => n + r.cpu, 0) / list.reduce((n, r) => n + r.requests, 0)) * 1e6);
    const row = (api: string, list: Awaited<ReturnType<typeof load>>[]) => ({
      mode: mode.name,
      api,
      [`req/s (mean of ${list.length})`]: Math.round(mean(list)),
      'by run': list.map((r) => Math.round(r.rps)).join(' '),
      'CPU µs/req': cpuPerRequest(list),
      'p99 ms': Math.max(...list.map((r) => r.p99)),
    });
    return { rows: [row('REST /v1/messages/send', runs.rest), row('Evolution sendText', runs.evolution)], ratio: mean(runs.evolution) / mean(runs.rest), stored, answered: [...runs.rest, ...runs.evolution].reduce((n, r) => n + r.ok, 0) };
  } finally {
    await gw.stop();
  }
}

await buildIfChanged();
const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-evolution-'));
const database = await createTestDatabase();
const embeddedStorage: Record<string, string> = { DATA_DIR: join(dir, 'embedded') };
const MODES: Array<{ name: string; storage: Record<string, string> }> = [
  { name: 'embedded (PGlite)', storage: embeddedStorage },
  { name: 'PostgreSQL + Redis', storage: { DATA_DIR: join(dir, 'postgres'), DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchevo:${randomBytes(4).toString('hex')}:` } },
].filter((m) => !values.mode || m.name.includes(values.mode));
for (const mode of MODES) {
  const result = await bench(mode);
  console.log(`${mode.name}: sendText, ${values.connections} connections, ${values.duration} s per run`);
  console.table(result.rows);
  console.log(`Evolution / REST: ${(result.ratio * 100).toFixed(1)} % (goal ≥ 90 %); 2xx answers ${result.answered}, messages stored ${result.stored}`);
}
rmSync(dir, { recursive: true, force: true });
await database.drop();
process.exit(0);
