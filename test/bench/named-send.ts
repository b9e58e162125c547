/**
 * Sends through a named instance against the routed send on the same gateway, in the same run (goal: at least
 * 95 % of the routed one), then stored row sizes (docs/benchmarks.md, "Each benchmark in detail").
 * Usage: npm run bench:named [-- --duration 10 --connections 50 --rounds 4 --mode embedded|PostgreSQL]
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { connectedV1Instance, eventually } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { client } from '../helpers/http.js';
import { REDIS_URL } from '../kit/modes.js';
import { createTestDatabase } from '../kit/postgres.js';
import { PNG_1PX } from '../kit/files.js';
import { buildIfChanged, metricOf, npmStart, scrape } from './as-users-run-it.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '4' },
    mode: { type: 'string', default: '' },
  },
});
const run = promisify(execFile);

interface Run {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
}

async function load(url: string, key: string, body: unknown, duration: string): Promise<Run> {
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    ['--json', '-d', duration, '-c', values.connections!, '-m', 'POST', '-H', `authorization=Bearer ${key}`, '-H', 'content-type=application/json', '-b', JSON.stringify(body), url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout);
  if (result.non2xx || result.errors) console.warn(`${url}: answers by status ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, ok: result['2xx'], failed: result.non2xx + result.errors };
}

/** One message of each kind the sandbox carries, as a tenant would send it. */
const KINDS: Record<string, Record<string, unknown>> = {
  text: { text: 'benchmark message' },
  'text + mentions': { text: 'hi @5511977776666', mentions: ['5511977776666'] },
  // A real PNG (its bytes are checked against the type), padded after its end to 4 KiB.
  'image (uploaded, 4 KiB)': { media: { data: Buffer.concat([PNG_1PX, Buffer.alloc(4096 - PNG_1PX.length, 7)]).toString('base64'), mimetype: 'image/png' }, mediaType: 'image', caption: 'a picture' },
  location: { location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' } },
  contacts: { contacts: [{ displayName: 'Jane Doe', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nTEL;type=CELL;waid=5511966665555:+55 11 96666-5555\nEND:VCARD' }] },
};

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'bench@example.com', GATEWAY_ADMIN_PASSWORD: 'bench-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
/** Limits and quotas out of the way of the measure (the limiter itself still runs on every request). */
const LIMITS = { DAILY_MESSAGES_ENTERPRISE: '100000000', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000', RATE_LIMIT_BURST: '1000' };

/** The median stored size of a message row of each kind, 50 of each sent through the named path. */
async function rowSizes(api: ReturnType<typeof client>, key: string, instanceId: string, databaseUrl: string) {
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const sizes: Array<{ kind: string; 'median row bytes': number }> = [];
    for (const [kind, content] of Object.entries(KINDS)) {
      const ids: string[] = [];
      for (let n = 0; n < 50; n++) {
        const answer = await api.post(`/v1/chat/instances/${instanceId}/messages`, { body: { to: '5511987654321', ...content }, key });
        if (answer.status !== 200) throw new Error(`${kind}: ${answer.status} ${JSON.stringify(answer.body)}`);
        ids.push(answer.body.data.id);
      }
      const { rows } = await sql.query<{ bytes: number }>(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY pg_column_size(m.*))::int AS bytes FROM "Message" m WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      sizes.push({ kind, 'median row bytes': rows[0]!.bytes });
    }
    return sizes;
  } finally {
    await sql.end();
  }
}

async function bench(mode: { name: string; storage: Record<string, string> }) {
  const gw = await npmStart({ ...mode.storage, ...ADMIN, ...LIMITS });
  try {
    const api = client(gw.url);
    const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'bench' });
    const { id: instanceId } = await connectedV1Instance(api, key, 'bench line');
    await eventually(() => api.get(`/v1/chat/instances/${instanceId}`, { key }), (r) => r.body.data.status === 'connected', 30_000);
    const body = { to: '5511987654321', text: 'benchmark message' };
    const sides = {
      routed: { url: `${gw.url}/v1/messages/send`, runs: [] as Run[] },
      named: { url: `${gw.url}/v1/chat/instances/${instanceId}/messages`, runs: [] as Run[] },
    };
    for (const side of Object.values(sides)) await load(side.url, key, body, '3');
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = round % 2 ? (['named', 'routed'] as const) : (['routed', 'named'] as const);
      for (const name of order) sides[name].runs.push(await load(sides[name].url, key, body, values.duration!));
    }
    // Every 2xx is a stored message (the warm-ups' included: they are counted here too).
    const stored = metricOf(await scrape(gw.url), 'mgw_messages');
    const sum = (list: Run[]) => list.reduce((n, r) => n + r.rps, 0);
    const row = (path: string, list: Run[]) => ({
      path,
      'req/s by round': list.map((r) => Math.round(r.rps)).join(', '),
      'req/s (mean)': Math.round(sum(list) / list.length),
      'p50 ms (worst)': Math.max(...list.map((r) => r.p50)),
      'p99 ms (worst)': Math.max(...list.map((r) => r.p99)),
      failed: list.reduce((n, r) => n + r.failed, 0),
    });
    return {
      rows: [row('POST /v1/messages/send', sides.routed.runs), row('POST /v1/chat/instances/<id>/messages', sides.named.runs)],
      ratios: sides.named.runs.map((r, n) => r.rps / sides.routed.runs[n]!.rps),
      ratio: sum(sides.named.runs) / sum(sides.routed.runs),
      stored,
      sizes: mode.storage.DATABASE_URL ? await rowSizes(api, key, instanceId, mode.storage.DATABASE_URL) : undefined,
    };
  } finally {
    await gw.stop();
  }
}

await buildIfChanged();
const dir = mkdtempSync(join(tmpdir(), 'mgw-bench-named-'));
const database = await createTestDatabase();
const MODES = [
  { name: 'embedded (PGlite)', storage: { DATA_DIR: join(dir, 'embedded') } as Record<string, string> },
  { name: 'PostgreSQL + Redis', storage: { DATA_DIR: join(dir, 'postgres'), DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwbenchnamed:${randomBytes(4).toString('hex')}:` } },
].filter((m) => !values.mode || m.name.includes(values.mode));
try {
  for (const mode of MODES) {
    const result = await bench(mode);
    console.log(`\n${mode.name}: a text through a named instance vs routed, ${values.connections} connections, ${values.duration} s per run, ${values.rounds} rounds (npm start, own process)`);
    console.table(result.rows);
    console.log(`named / routed by round: ${result.ratios.map((r) => `${(r * 100).toFixed(1)} %`).join(', ')}; of the sums: ${(result.ratio * 100).toFixed(1)} % (goal ≥ 95 %); messages stored ${result.stored}`);
    if (result.sizes) console.table(result.sizes);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
}
process.exit(0);
