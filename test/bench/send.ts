/**
 * Benchmarks the foundation: time from process start to ready on a fresh data dir, and the
 * POST /v1/messages/send path (auth, validation, routing, insert) in both running modes.
 * The load generator (autocannon) runs as its own process so it does not share the gateway's CPU
 * time slice. Usage: npm run bench [-- --duration 10 --connections 50]
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

async function measureStartup(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '3999', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch('http://127.0.0.1:3999/readyz').then((r) => r.ok, () => false);
      if (ok) return performance.now() - started;
      if (performance.now() - started > 60_000) throw new Error('gateway did not become ready in 60 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchSend(mode: (typeof MODES)[number]) {
  const gw = await startTestGateway(mode, { env: { LOG_LEVEL: 'warn' } });
  try {
    const api = client(gw.url);
    const tenant = await createTenant(gw.gateway, api);
    await insertInstance(gw.gateway, tenant.tenantId);
    const { stdout } = await run(
      join('node_modules', '.bin', 'autocannon'),
      [
        '--json',
        '-d', values.duration!,
        '-c', values.connections!,
        '-m', 'POST',
        '-H', `authorization=Bearer ${tenant.liveKey}`,
        '-H', 'content-type=application/json',
        '-b', JSON.stringify({ to: '5511987654321', text: 'benchmark message' }),
        `${gw.url}/v1/messages/send`,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout);
    const stored = await gw.gateway.infra.db.prisma.message.count({ where: { tenantId: tenant.tenantId } });
    return {
      mode: mode.name,
      'req/s (mean)': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      '2xx': result['2xx'],
      'non-2xx': result.non2xx,
      errors: result.errors,
      'rows stored': stored,
    };
  } finally {
    await gw.close();
  }
}

const startup = await measureStartup();
console.log(`startup to ready (fresh PGlite data dir, includes tsx and migrations): ${Math.round(startup)} ms`);
const rows = [];
for (const mode of MODES) rows.push(await benchSend(mode));
console.log(`POST /v1/messages/send, ${values.connections} connections, ${values.duration} s each:`);
console.table(rows);
process.exit(0);
