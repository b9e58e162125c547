/**
 * What the rate limiter adds to a request, with Redis: two gateways, with and without it, in alternating rounds,
 * and one admission's own cost (docs/benchmarks.md, "Each benchmark in detail"). Usage: npm run bench:rate-limit
 */
import { Agent, request } from 'node:http';
import { createTenant } from '../factories/tenants.js';
import { startTestGateway } from '../kit/gateway.js';
import { client } from '../helpers/http.js';
import { MODES } from '../kit/modes.js';

const ROUNDS = 10;
const PER_ROUND = 300;
const mode = MODES.find((m) => m.redis)!;
const generous = { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000', LOG_LEVEL: 'warn' };

const limited = await startTestGateway(mode, { env: generous });
const unlimitedGw = await startTestGateway(mode, {
  env: generous,
  reuse: { env: { ...limited.env, REDIS_PREFIX: limited.gateway.infra.config.REDIS_PREFIX } },
  infra: { rateLimiting: false },
});
const tenant = await createTenant(limited.gateway, client(limited.url));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(base: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(new URL('/api-keys', base), { agent, headers: { authorization: `Bearer ${tenant.liveKey}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

const samples = { with: [] as number[], without: [] as number[] };
for (let i = 0; i < 200; i++) {
  await get(limited.url);
  await get(unlimitedGw.url);
}
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < PER_ROUND; i++) samples.with.push(await get(limited.url));
  for (let i = 0; i < PER_ROUND; i++) samples.without.push(await get(unlimitedGw.url));
}

const limiter = limited.gateway.infra.requestLimiter;
const direct: number[] = [];
for (let i = 0; i < 3000; i++) {
  const started = performance.now();
  const admission = await limiter.enter('bench:subject', { perMinute: 1_000_000, perHour: 10_000_000, burst: 100 });
  admission.leave();
  direct.push(performance.now() - started);
}

console.log(`GET /api-keys, sequential, ${ROUNDS * PER_ROUND} requests each, PostgreSQL + Redis:`);
console.table({
  'with limiter': { p50: fmt(percentile(samples.with, 50)), p99: fmt(percentile(samples.with, 99)) },
  'without limiter': { p50: fmt(percentile(samples.without, 50)), p99: fmt(percentile(samples.without, 99)) },
  'difference': {
    p50: fmt(percentile(samples.with, 50) - percentile(samples.without, 50)),
    p99: fmt(percentile(samples.with, 99) - percentile(samples.without, 99)),
  },
  'limiter.enter() alone (Redis)': { p50: fmt(percentile(direct, 50)), p99: fmt(percentile(direct, 99)) },
});

agent.destroy();
await unlimitedGw.gateway.close();
await limited.close();
process.exit(0);
