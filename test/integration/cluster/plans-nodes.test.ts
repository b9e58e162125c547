import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../factories/sandbox.js';
import { createTenant } from '../../factories/tenants.js';
import type { ChildGateway } from '../../kit/process.js';
import type { TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { withTwoNodes } from '../../kit/worlds/cluster.js';

const ADMIN_TOKEN = randomBytes(32).toString('base64url');

/** A plan changed on one node holds on the other, whose cached keys carried the old one. */
describe("a tenant's plan changed through one node's admin API (PostgreSQL + Redis)", () => {
  let a: TestGateway;
  let b: ChildGateway;
  withTwoNodes((nodes) => ({ a, b } = nodes), { env: { ADMIN_TOKEN } });

  it('lifts the instance cap on the other node from its next requests', async () => {
    const apiA = client(a.url);
    const apiB = client(b.url);
    const tenant = await createTenant(a.gateway, apiA, 'pro');
    const onB = (name: string) => apiB.post('/v1/chat/instances', { key: tenant.liveKey, body: { name } });
    for (let i = 1; i <= 5; i++) expect((await onB(`line ${i}`)).status).toBe(201);
    const refused = await onB('line 6');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: { code: 'instance_limit_reached', message: 'The pro plan allows 5 instance(s); delete one or upgrade.' } });

    const changed = await apiA.request('PATCH', `/admin/tenants/${tenant.tenantId}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: { plan: 'self-hosted', limits: { requestsPerMinute: 777 } } });
    expect(changed.status).toBe(200);
    // The other node hears of it through Redis: its next requests, within moments, see the new plan.
    const seen = await eventually(() => apiB.get('/api-keys', { key: tenant.liveKey }), (r) => r.headers.get('ratelimit-policy')?.startsWith('"minute";q=777;') ?? false, 10_000);
    expect(seen.status).toBe(200);
    expect((await onB('line 6')).status).toBe(201);
    expect((await onB('line 7')).status).toBe(201);

    // And back: the cap holds again on B (the instances it has stay).
    await apiA.request('PATCH', `/admin/tenants/${tenant.tenantId}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: { plan: 'pro', limits: { requestsPerMinute: null } } });
    await eventually(() => apiB.get('/api-keys', { key: tenant.liveKey }), (r) => r.headers.get('ratelimit-policy')?.startsWith('"minute";q=100000;') ?? false, 10_000);
    expect((await onB('line 8')).body.error.code).toBe('instance_limit_reached');
  }, 120_000);
});
