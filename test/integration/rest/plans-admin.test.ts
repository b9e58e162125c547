import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { type Client, failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite } from '../../kit/suite.js';

const ADMIN_TOKEN = randomBytes(32).toString('base64url');
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A plans file with one plan of the operator's own. */
const folder = mkdtempSync(join(tmpdir(), 'mgw-plans-'));
const PLANS_FILE = join(folder, 'plans.json');
writeFileSync(PLANS_FILE, JSON.stringify({ plans: { team: { instances: 7, dailyMessages: 2, requestsPerMinute: 5000, requestsPerHour: 50_000, burst: 40 } } }));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const LIMIT_REACHED = (message: string) => ({ success: false, error: { code: 'instance_limit_reached', message } });

describe.each(MODES)('plans and the admin API — $name', (mode) => {
  const suite = gatewaySuite(mode, { env: { ADMIN_TOKEN, PLANS_FILE }, tenants: ['pro', 'self-hosted'] });
  let api: Client;
  let pro: TestTenant;
  let selfHosted: TestTenant;
  beforeAll(() => {
    ({ api } = suite);
    [pro, selfHosted] = suite.tenants as [TestTenant, TestTenant];
  });

  const create = (tenant: TestTenant, name: string) => api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name } });
  const patch = (tenantId: string, body: unknown, headers: Record<string, string> = admin) => api.request('PATCH', `/admin/tenants/${tenantId}`, { headers, body });

  it('accepts a sixth instance on the self-hosted plan and refuses it on pro with the spec 403', async () => {
    for (let i = 1; i <= 6; i++) expect((await create(selfHosted, `line ${i}`)).status).toBe(201);
    for (let i = 1; i <= 5; i++) expect((await create(pro, `line ${i}`)).status).toBe(201);
    const sixth = await create(pro, 'line 6');
    expect(sixth.status).toBe(403);
    expect(sixth.body).toEqual(LIMIT_REACHED('The pro plan allows 5 instance(s); delete one or upgrade.'));
    const viewer = await api.graphql('{ me { tenant { plan limits { instances { used max } } } } }', {}, { key: selfHosted.liveKey });
    expect(viewer.body.data.me.tenant).toEqual({ plan: 'self-hosted', limits: { instances: { used: 6, max: null } } });
  });

  it("changes a tenant's plan and own limits through the admin API, effective on its next request", async () => {
    const tenant = await createTenant(suite.gw.gateway, api, 'pro');
    for (let i = 1; i <= 5; i++) expect((await create(tenant, `line ${i}`)).status).toBe(201);
    expect((await create(tenant, 'line 6')).status).toBe(403);

    const raised = await patch(tenant.tenantId, { plan: 'team' });
    expect(raised.status).toBe(200);
    expect(raised.body.data).toEqual({
      id: tenant.tenantId,
      name: expect.any(String),
      plan: 'team',
      limits: { instances: 7, dailyMessages: 2, requestsPerMinute: 5000, requestsPerHour: 50_000, burst: 40 },
      overrides: { instances: null, dailyMessages: null, requestsPerMinute: null, requestsPerHour: null, burst: null },
    });
    // The key was cached with the pro plan; the very next request works under the new one.
    expect((await create(tenant, 'line 6')).status).toBe(201);
    const rate = await api.get('/api-keys', { key: tenant.liveKey });
    expect(rate.headers.get('ratelimit-policy')).toBe('"minute";q=5000;w=60, "hour";q=50000;w=3600');

    // A limit of the tenant's own, over its plan's; the refusal says whose limit it is.
    expect((await patch(tenant.tenantId, { limits: { instances: 6 } })).body.data.limits.instances).toBe(6);
    expect((await create(tenant, 'line 7')).body).toEqual(LIMIT_REACHED("This tenant's own limit allows 6 instance(s); delete one or upgrade."));
    const back = await patch(tenant.tenantId, { limits: { instances: null } });
    expect(back.body.data).toMatchObject({ limits: { instances: 7 }, overrides: { instances: null } });
    expect((await create(tenant, 'line 7')).status).toBe(201);
    expect((await create(tenant, 'line 8')).body).toEqual(LIMIT_REACHED('The team plan allows 7 instance(s); delete one or upgrade.'));

    // Daily messages: the team plan's 2, then the tenant's own 3, counted on from what it sent today.
    const send = (text: string) => api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: '5511987654321', text } });
    expect((await send('one')).status).toBe(200);
    expect((await send('two')).status).toBe(200);
    const capped = await send('three');
    expect(capped.status).toBe(429);
    expect(capped.body.error.message).toMatch(/^Daily message quota of the team plan reached: 2 per UTC day/);
    await patch(tenant.tenantId, { limits: { dailyMessages: 3 } });
    expect((await send('three')).status).toBe(200);
    expect((await send('four')).body.error.message).toMatch(/^Daily message quota of this tenant's own limit reached: 3 per UTC day/);

    // Requests per minute: the tenant's own 2, on its next request.
    await patch(tenant.tenantId, { limits: { requestsPerMinute: 2 } });
    const key = tenant.testKey; // not used yet this minute
    const first = await api.get('/api-keys', { key });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect((await api.get('/api-keys', { key })).status).toBe(200);
    const limited = await api.get('/api-keys', { key });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    await patch(tenant.tenantId, { limits: { requestsPerMinute: null } });
    expect((await api.get('/api-keys', { key })).status).toBe(200);

    const shown = await api.request('GET', `/admin/tenants/${tenant.tenantId}`, { headers: admin });
    expect(shown.body.data).toMatchObject({ plan: 'team', overrides: { instances: null, dailyMessages: 3, requestsPerMinute: null } });
  });

  it('a cookie session learns the new plan on its next request too', async () => {
    const tenant = await createTenant(suite.gw.gateway, api, 'starter');
    const make = (name: string) => api.post('/chat/instances', { cookie: tenant.cookie, body: { name } });
    expect((await make('first')).status).toBe(201);
    expect((await make('second')).body).toEqual(LIMIT_REACHED('The starter plan allows 1 instance(s); delete one or upgrade.'));
    await patch(tenant.tenantId, { plan: 'self-hosted' });
    expect((await make('second')).status).toBe(201);
  });

  it('lists the plans table', async () => {
    const plans = await api.get('/admin/plans', { headers: admin });
    expect(plans.status).toBe(200);
    expect(plans.body.data.defaultPlan).toBe('pro');
    expect(Object.keys(plans.body.data.plans).sort()).toEqual(['enterprise', 'pro', 'self-hosted', 'starter', 'team']);
    expect(plans.body.data.plans['self-hosted']).toMatchObject({ instances: null, dailyMessages: null });
    expect(plans.body.data.plans.starter).toMatchObject({ instances: 1 });
  });

  it('refuses bad changes with 400 naming the field, an unknown tenant with 404, a missing or wrong token with 401', async () => {
    const id = pro.tenantId;
    const unknownPlan = await patch(id, { plan: 'gold' });
    expect(unknownPlan.status).toBe(400);
    expect(unknownPlan.body).toEqual(failure('invalid_request'));
    expect(unknownPlan.body.error.message).toMatch(/^plan: unknown plan "gold"; known: /);
    const negative = await patch(id, { limits: { instances: -1 } });
    expect(negative.status).toBe(400);
    expect(negative.body.error.message).toMatch(/^limits\.instances: /);
    const zeroRate = await patch(id, { limits: { burst: 0 } });
    expect(zeroRate.status).toBe(400);
    expect(zeroRate.body.error.message).toMatch(/^limits\.burst: /);
    const fraction = await patch(id, { limits: { dailyMessages: 1.5 } });
    expect(fraction.status).toBe(400);
    expect(fraction.body.error.message).toMatch(/^limits\.dailyMessages: /);
    const unknownLimit = await patch(id, { limits: { messages: 3 } });
    expect(unknownLimit.status).toBe(400);
    expect(unknownLimit.body.error.message).toMatch(/messages/);
    for (const body of [{}, { limits: {} }, 'pro', [], { plan: 5 }, { plan: 'PRO plan' }]) {
      const refused = await patch(id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toEqual(failure('invalid_request'));
    }
    const notJson = await api.request('PATCH', `/admin/tenants/${id}`, { headers: { ...admin, 'content-type': 'application/json' }, raw: '{"plan":' });
    expect(notJson.status).toBe(400);

    for (const unknown of [randomUUID(), 'not-a-uuid']) {
      expect((await patch(unknown, { plan: 'pro' })).body).toEqual(failure('not_found'));
      expect((await api.request('GET', `/admin/tenants/${unknown}`, { headers: admin })).status).toBe(404);
    }

    const wrong: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Bearer ${ADMIN_TOKEN}x` }, { authorization: pro.liveKey }, { authorization: `Bearer ${pro.liveKey}` }];
    for (const headers of wrong) {
      const refused = await patch(id, { plan: 'self-hosted' }, headers);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(failure('unauthorized'));
      expect((await api.get('/admin/plans', { headers })).status).toBe(401);
    }
    // Nothing above changed the tenant.
    expect((await api.request('GET', `/admin/tenants/${id}`, { headers: admin })).body.data).toMatchObject({ plan: 'pro', overrides: { instances: null } });
    // The token is never logged.
    expect(suite.gw.logs.lines.some((line) => line.includes(ADMIN_TOKEN))).toBe(false);
  });
});

describe('the admin API without ADMIN_TOKEN', () => {
  const suite = gatewaySuite(MODES[0]!);

  it('is off: every call answers 401 saying so, even with a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${ADMIN_TOKEN}` }] as Array<Record<string, string>>) {
      const refused = await suite.api.request('PATCH', `/admin/tenants/${suite.tenants[0]!.tenantId}`, { headers, body: { plan: 'self-hosted' } });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toEqual({ code: 'unauthorized', message: 'The admin API is off: start the gateway with ADMIN_TOKEN set.' });
    }
  });
});
