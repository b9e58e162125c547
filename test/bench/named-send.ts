/**
 * Sends through a named instance (`POST /v1/chat/instances/<id>/messages`) against the spec's routed
 * send (`POST /v1/messages/send`) on the same gateway, in the same run (goal: the named path at least
 * 95 % of the routed one), then the median stored size of a message row of each kind. Each side runs
 * twice, routed, named, named, routed, after a warm-up; the load generator (autocannon) is its own
 * process. Usage: npm run bench:named [-- --duration 10 --connections 50]
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { insertInstance } from '../factories/instances.js';
import { createTenant } from '../factories/tenants.js';
import { startTestGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { MODES } from '../helpers/modes.js';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } },
});
const run = promisify(execFile);

async function load(url: string, key: string, body: unknown, duration: string) {
  const { stdout } = await run(
    join('node_modules', '.bin', 'autocannon'),
    ['--json', '-d', duration, '-c', values.connections!, '-m', 'POST', '-H', `authorization=Bearer ${key}`, '-H', 'content-type=application/json', '-b', JSON.stringify(body), url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout);
  if (result.non2xx || result.errors) console.warn(`${url}: answers by status ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
  return { rps: result.requests.average as number, p50: result.latency.p50 as number, p99: result.latency.p99 as number, failed: (result.non2xx as number) + (result.errors as number) };
}

/** One message of each kind the sandbox carries, as a tenant would send it. */
const KINDS: Record<string, Record<string, unknown>> = {
  text: { text: 'benchmark message' },
  'text + mentions': { text: 'hi @5511977776666', mentions: ['5511977776666'] },
  'image (uploaded, 4 KiB)': { media: { data: Buffer.alloc(4096, 7).toString('base64'), mimetype: 'image/png' }, mediaType: 'image', caption: 'a picture' },
  location: { location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' } },
  contacts: { contacts: [{ displayName: 'Jane Doe', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nTEL;type=CELL;waid=5511966665555:+55 11 96666-5555\nEND:VCARD' }] },
};

async function bench(mode: (typeof MODES)[number]) {
  const gw = await startTestGateway(mode, { env: { LOG_LEVEL: 'warn', DAILY_MESSAGES_PRO: '100000000', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000' } });
  try {
    const api = client(gw.url);
    const tenant = await createTenant(gw.gateway, api);
    const { id: instanceId } = await insertInstance(gw.gateway, tenant.tenantId);
    const body = { to: '5511987654321', text: 'benchmark message' };
    const routed = { url: `${gw.url}/v1/messages/send`, body };
    const named = { url: `${gw.url}/v1/chat/instances/${instanceId}/messages`, body };
    await load(routed.url, tenant.liveKey, routed.body, '2');
    await load(named.url, tenant.liveKey, named.body, '2');
    const runs = { routed: [] as Awaited<ReturnType<typeof load>>[], named: [] as Awaited<ReturnType<typeof load>>[] };
    // Routed, named, named, routed: each side runs as often first as second, so drift weighs on both alike.
    for (const side of ['routed', 'named', 'named', 'routed'] as const) {
      const target = side === 'routed' ? routed : named;
      runs[side].push(await load(target.url, tenant.liveKey, target.body, values.duration!));
    }
    const mean = (list: Array<{ rps: number }>) => list.reduce((n, r) => n + r.rps, 0) / list.length;
    const row = (name: string, list: Awaited<ReturnType<typeof load>>[]) => ({
      mode: mode.name,
      path: name,
      'req/s (mean of 2)': Math.round(mean(list)),
      'p50 ms': Math.max(...list.map((r) => r.p50)),
      'p99 ms': Math.max(...list.map((r) => r.p99)),
      failed: list.reduce((n, r) => n + r.failed, 0),
    });

    // Row sizes: 50 of each kind through the named path, measured as PostgreSQL stores them.
    const sizes: Array<{ kind: string; 'median row bytes': number }> = [];
    for (const [kind, content] of Object.entries(KINDS)) {
      const ids: string[] = [];
      for (let n = 0; n < 50; n++) {
        const answer = await api.post(`/v1/chat/instances/${instanceId}/messages`, { body: { to: '5511987654321', ...content }, key: tenant.liveKey });
        if (answer.status !== 200) throw new Error(`${kind}: ${answer.status} ${JSON.stringify(answer.body)}`);
        ids.push(answer.body.data.id);
      }
      const [median] = await gw.gateway.infra.db.prisma.$queryRawUnsafe<Array<{ bytes: number }>>(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY pg_column_size(m.*))::int AS bytes FROM "Message" m WHERE id = ANY($1::uuid[])`,
        ids,
      );
      sizes.push({ kind, 'median row bytes': median!.bytes });
    }
    return { rows: [row('POST /v1/messages/send', runs.routed), row('POST /v1/chat/instances/<id>/messages', runs.named)], ratio: mean(runs.named) / mean(runs.routed), sizes };
  } finally {
    await gw.close();
  }
}

for (const mode of MODES) {
  const result = await bench(mode);
  console.log(`${mode.name}: a text through a named instance vs routed, ${values.connections} connections, ${values.duration} s per run (in-process gateway)`);
  console.table(result.rows);
  console.log(`named / routed: ${(result.ratio * 100).toFixed(1)} % (goal ≥ 95 %)`);
  console.table(result.sizes);
}
process.exit(0);
