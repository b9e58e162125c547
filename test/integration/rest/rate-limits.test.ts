import { type ChildProcess, spawn } from 'node:child_process';
import { distEntry, freePort } from '../../kit/process.js';
import { startRedis, waitFor } from '../../helpers/private-redis.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertInstance } from '../../factories/instances.js';
import { createKey, createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { heldSend } from '../../helpers/held-request.js';
import { client, failure } from '../../helpers/http.js';
import { MODES, REDIS_URL } from '../../kit/modes.js';

const LIMITS = { RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_PER_HOUR: '1000', RATE_LIMIT_BURST: '10' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(MODES)('rate limits — $name', (mode) => {
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;

  beforeAll(async () => {
    gw = await startTestGateway(mode, {
      env: { ...LIMITS, TEST_KEY_DAILY_MESSAGES: '3', DAILY_MESSAGES_STARTER: '2' },
    });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    await insertInstance(gw.gateway, tenant.tenantId);
  });
  afterAll(() => gw?.close());

  it('answers the 61st request in a minute with 429, the documented body and headers; another key is unaffected', async () => {
    const key = await createKey(api, tenant.cookie, { name: 'busy' });
    const first = await api.get('/api-keys', { key });
    expect(first.status).toBe(200);
    const epoch = Math.ceil(Date.now() / 1000);
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(epoch + 55);
    expect(reset).toBeLessThanOrEqual(epoch + 61);
    expect(first.headers.get('ratelimit-policy')).toBe('"minute";q=60;w=60, "hour";q=1000;w=3600');
    expect(first.headers.get('ratelimit')).toMatch(/^"minute";r=59;t=\d+, "hour";r=999;t=\d+$/);

    for (let i = 2; i <= 60; i++) expect((await api.get('/api-keys', { key })).status).toBe(200);
    const limited = await api.get('/api-keys', { key });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      success: false,
      error: { code: 'rate_limit_exceeded', message: expect.stringMatching(/60 requests per minute/), retryAfter: expect.any(Number) },
    });
    expect(Number.isInteger(limited.body.error.retryAfter)).toBe(true);
    expect(limited.body.error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limited.body.error.retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('retry-after')).toBe(String(limited.body.error.retryAfter));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    // GraphQL counts against the same buckets.
    // As a GraphQL error with its code: 200 for application/json, 429 for application/graphql-response+json.
    const viaGraphql = await api.graphql('{ apiKeys { __typename } }', {}, { key });
    expect(viaGraphql.status).toBe(200);
    expect(viaGraphql.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'rate_limit_exceeded', retryAfter: expect.any(Number) } }] });
    expect(viaGraphql.headers.get('retry-after')).toBe(String(viaGraphql.body.errors![0]!.extensions!.retryAfter));
    const strict = await api.post('/graphql', { key, body: { query: '{ apiKeys { __typename } }' }, headers: { accept: 'application/graphql-response+json' } });
    expect(strict.status).toBe(429);
    expect(strict.body.errors[0].extensions.code).toBe('rate_limit_exceeded');

    const otherKey = await api.get('/api-keys', { key: tenant.liveKey });
    expect(otherKey.status).toBe(200);
    expect(Number(otherKey.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(50);
  });

  it('counts a session cookie per user, on REST and GraphQL alike', async () => {
    const response = await api.post('/api-keys', { cookie: tenant.cookie, body: { name: 'counted' } });
    const remaining = Number(response.headers.get('x-ratelimit-remaining'));
    const viaGraphql = await api.graphql('{ me { __typename } }', {}, { cookie: tenant.cookie });
    expect(viaGraphql.status).toBe(200);
    expect(Number(viaGraphql.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
  });

  it('counts each request once on every path under an instance, with a key and with the cookie', async () => {
    const key = await createKey(api, tenant.cookie, { name: 'once' });
    const instance = await insertInstance(gw.gateway, tenant.tenantId);
    const remainingAfter = async (response: Promise<{ status: number; headers: Headers }>) => {
      const answered = await response;
      expect(answered.status).toBeLessThan(500);
      return Number(answered.headers.get('x-ratelimit-remaining'));
    };
    // Paths of every router that shares the instances' prefix: the instance API's own, a named send
    // (answered 400 for its empty body, after authentication), the groups and the number check.
    for (const [credentials, prefix] of [[{ key }, '/v1/chat/instances'], [{ cookie: tenant.cookie }, '/chat/instances']] as const) {
      const requests = [
        () => api.get(`${prefix}/${instance.id}`, credentials),
        () => api.post(`${prefix}/${instance.id}/messages`, { ...credentials, body: {} }),
        () => api.get(`${prefix}/${instance.id}/groups`, credentials),
        () => api.post(`${prefix}/${instance.id}/contacts/check`, { ...credentials, body: {} }),
        () => api.get(`${prefix}/${instance.id}`, credentials),
      ];
      const remaining = [];
      for (const request of requests) remaining.push(await remainingAfter(request()));
      expect(remaining.slice(1)).toEqual(remaining.slice(0, -1).map((before) => before - 1));
    }
  });

  it('puts no rate-limit headers on unauthenticated answers', async () => {
    const response = await api.get('/api-keys');
    expect(response.status).toBe(401);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('caps a test key at TEST_KEY_DAILY_MESSAGES accepted messages per UTC day', async () => {
    const key = await createKey(api, tenant.cookie, { name: 'daily', testMode: true });
    const send = (body: object, headers: Record<string, string> = {}) => api.post('/v1/messages/send', { key, body, headers });
    expect((await send({ to: '5511987654321', text: 'one' }, { 'idempotency-key': 'd-1' })).status).toBe(200);
    // Refused and replayed sends do not count.
    expect((await send({ to: 'bad', text: 'x' })).status).toBe(400);
    expect((await send({ to: '5511987654321', text: 'one' }, { 'idempotency-key': 'd-1' })).status).toBe(200);
    expect((await send({ to: '5511987654321', text: 'two' })).status).toBe(200);
    const viaGraphql = await api.graphql(
      'mutation { sendMessage(input: { to: "5511987654321", text: "three" }) { message { id } userErrors { code } } }',
      {},
      { key },
    );
    expect(viaGraphql.body.data.sendMessage).toEqual({ message: { id: expect.any(String) }, userErrors: [] });

    const capped = await send({ to: '5511987654321', text: 'four' });
    expect(capped.status).toBe(429);
    expect(capped.body.error.code).toBe('rate_limit_exceeded');
    const now = new Date();
    const toMidnight = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
    expect(Math.abs(capped.body.error.retryAfter - toMidnight)).toBeLessThan(5);
    expect(capped.headers.get('retry-after')).toBe(String(capped.body.error.retryAfter));
    // The headers and the message describe the daily quota that refused it, not the request window.
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) / 1000;
    expect(capped.headers.get('x-ratelimit-limit')).toBe('3');
    expect(capped.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Math.abs(Number(capped.headers.get('x-ratelimit-reset')) - midnight)).toBeLessThanOrEqual(2);
    expect(capped.body.error.message).toMatch(/^Daily message quota of this test key reached: 3 per UTC day, 0 remaining, resets at \d{4}-\d\d-\d\dT00:00:00\.\d{3}Z/);
    expect(await gw.gateway.infra.db.prisma.message.count({ where: { apiKey: { name: 'daily', tenantId: tenant.tenantId } } })).toBe(3);

    // The tenant's production key draws on the plan quota instead.
    expect((await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: '5511987654321', text: 'live' } })).status).toBe(200);
  });

  it('caps production messages per tenant by plan', async () => {
    const small = await createTenant(gw.gateway, api, 'starter');
    await insertInstance(gw.gateway, small.tenantId);
    const statuses = [];
    for (const key of [small.liveKey, small.liveKey, small.liveKey]) {
      statuses.push((await api.post('/v1/messages/send', { key, body: { to: '5511987654321', text: 'x' } })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('lets at most RATE_LIMIT_BURST requests be in flight: 11 held requests give exactly one 429', async () => {
    const key = await createKey(api, tenant.cookie, { name: 'burst' });
    const held = Array.from({ length: 11 }, (_, i) => heldSend(gw.url, key, { to: '5511987654321', text: `held ${i}` }));
    const early = await Promise.race([Promise.any(held.map((h) => h.status)), sleep(3000).then(() => 0)]);
    expect(early).toBe(429);
    for (const h of held) h.finish();
    const statuses = await Promise.all(held.map((h) => h.status));
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect((await api.get('/api-keys', { key })).status).toBe(200);
  });

  it('frees the slots of requests whose clients went away', async () => {
    const key = await createKey(api, tenant.cookie, { name: 'aborted' });
    const held = Array.from({ length: 10 }, () => heldSend(gw.url, key, { to: '5511987654321', text: 'x' }));
    await sleep(300);
    const blocked = heldSend(gw.url, key, { to: '5511987654321', text: 'x' });
    expect(await blocked.status).toBe(429);
    blocked.abort();
    for (const h of held) h.abort();
    await sleep(300);
    expect((await api.get('/api-keys', { key })).status).toBe(200);
  });

  it('frees the slots of clients that went away before their request was admitted', async () => {
    // Dropped at staggered moments, many of them while the gateway is still looking up the new key or
    // counting the request: their slots must come back too, or the key is refused for a minute.
    const key = await createKey(api, tenant.cookie, { name: 'hung up early' });
    const dropped = Array.from({ length: 30 }, (_, i) => {
      const h = heldSend(gw.url, key, { to: '5511987654321', text: 'x' });
      setTimeout(() => h.abort(), i % 20);
      return h.status.catch(() => 0);
    });
    await Promise.all(dropped);
    // The key comes back to its whole burst. A busy gateway may take up a dropped request late and hold
    // its slot until it sees the close, so the burst is tried again a second later; a leaked slot would
    // stay 60 s. Two bursts of 10 and the 30 dropped stay within the minute's 60.
    let statuses: number[] = [];
    for (let burst = 0; burst < 2; burst++) {
      if (burst > 0) await sleep(1000);
      statuses = await Promise.all(Array.from({ length: 10 }, () => api.get('/api-keys', { key }).then((r) => r.status)));
      if (statuses.every((status) => status === 200)) break;
    }
    expect(statuses).toEqual(Array(10).fill(200));
  });

  it('counts the hour window too, and shows it when it is the tightest', async () => {
    const hourly = await startTestGateway(mode, { env: { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '5', RATE_LIMIT_BURST: '10' } });
    try {
      const hapi = client(hourly.url);
      const t = await createTenant(hourly.gateway, hapi);
      // createTenant spent two requests of this user's buckets; the key's own buckets are fresh.
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 6; i++) {
        last = await hapi.get('/api-keys', { key: t.liveKey });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(last!.headers.get('x-ratelimit-limit')).toBe('5');
      expect(last!.body.error.message).toMatch(/5 requests per hour/);
      expect(last!.body.error.retryAfter).toBeGreaterThan(3000);
    } finally {
      await hourly.close();
    }
  });
});

describe('rate limits across nodes (Redis)', () => {
  const postgresRedis = MODES.find((m) => m.redis)!;

  it('two gateways on one Redis enforce one shared limit', async () => {
    const a = await startTestGateway(postgresRedis, { env: { RATE_LIMIT_PER_MINUTE: '10' } });
    const b = await startTestGateway(postgresRedis, { reuse: { env: { ...a.env, REDIS_PREFIX: a.gateway.infra.config.REDIS_PREFIX } }, env: { RATE_LIMIT_PER_MINUTE: '10' } });
    try {
      const tenant = await createTenant(a.gateway, client(a.url));
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        statuses.push((await client(a.url).get('/api-keys', { key: tenant.liveKey })).status);
        statuses.push((await client(b.url).get('/api-keys', { key: tenant.liveKey })).status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    } finally {
      await b.gateway.close();
      await a.close();
    }
  });

  it('gives back the in-flight slots of a node that died mid-request', async () => {
    const gw = await startTestGateway(postgresRedis, { env: { RATE_LIMIT_BURST: '2', RATE_LIMIT_SLOT_TTL_S: '2' } });
    const prefix = gw.gateway.infra.config.REDIS_PREFIX;
    let child: ChildProcess | undefined;
    try {
      const tenant = await createTenant(gw.gateway, client(gw.url));
      await insertInstance(gw.gateway, tenant.tenantId);
      const port = await freePort();
      // node itself, not a wrapper: SIGKILL must reach the gateway process.
      child = spawn(process.execPath, distEntry('main'), {
        env: { ...process.env, ...gw.env, REDIS_URL, REDIS_PREFIX: prefix, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_BURST: '2', RATE_LIMIT_SLOT_TTL_S: '2' },
        stdio: 'ignore',
      });
      const childUrl = `http://127.0.0.1:${port}`;
      await waitForReady(childUrl);
      const held = [heldSend(childUrl, tenant.liveKey, { to: '5511987654321', text: 'a' }), heldSend(childUrl, tenant.liveKey, { to: '5511987654321', text: 'b' })];
      await sleep(500);
      child.kill('SIGKILL');
      await Promise.allSettled(held.map((h) => h.status));
      // The dead node's slots are still taken in Redis...
      const api = client(gw.url);
      expect((await api.get('/api-keys', { key: tenant.liveKey })).status).toBe(429);
      // ...until they expire.
      await sleep(2500);
      expect((await api.get('/api-keys', { key: tenant.liveKey })).status).toBe(200);
    } finally {
      child?.kill('SIGKILL');
      await gw.close();
    }
  }, 60_000);

  it('keeps serving with per-node limits while Redis is down, and shares limits again when it is back', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const gw = await startTestGateway(postgresRedis, {
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '5' },
    });
    try {
      const api = client(gw.url);
      const tenant = await createTenant(gw.gateway, api);
      const key = await createKey(api, tenant.cookie, { name: 'through an outage' });
      expect((await api.get('/api-keys', { key })).status).toBe(200);
      expect((await api.get('/api-keys', { key })).status).toBe(200);

      redis.kill('SIGKILL');
      await sleep(300);
      const during: number[] = [];
      for (let i = 0; i < 7; i++) during.push((await api.get('/api-keys', { key })).status);
      // No 5xx: the insurance limiter counts from zero on this node, and still stops at 5.
      expect(during).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const ready = await api.get('/readyz');
      expect(ready.status).toBe(503);
      const warnings = gw.logs.lines.filter((l) => l.includes('unreachable'));
      expect(warnings.length).toBeGreaterThan(0);
      // One warning per Redis connection or feature that noticed (commands, live feed, cache invalidation,
      // in-flight limits…), never one per request.
      const said = warnings.map((line) => JSON.parse(line).msg as string);
      expect(said.length, said.join(' | ')).toBe(new Set(said).size);

      // A new, empty Redis: counting moves back there (the node's own counters are left behind).
      redis = await startRedis(port);
      await waitFor(async () => (await api.get('/readyz')).status === 200);
      expect((await api.get('/api-keys', { key })).status).toBe(200);
      const shared = await gw.gateway.infra.redis!.keys(`${gw.gateway.infra.config.REDIS_PREFIX}rl:*:minute`);
      expect(shared).toHaveLength(1);
      expect(Number(await gw.gateway.infra.redis!.get(shared[0]!))).toBe(1);
    } finally {
      await gw.close();
      redis.kill('SIGKILL');
    }
  }, 60_000);
});

async function waitForReady(url: string) {
  await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok === true, 30_000);
}
