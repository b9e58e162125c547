import { afterAll, describe, expect, it } from 'vitest';
import { insertInstance } from '../../factories/instances.js';
import { createKey, login } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

describe.each(MODES)('bootstrap, restart and logs — $name', (mode) => {
  const open: TestGateway[] = [];
  afterAll(async () => {
    for (const gw of open.reverse()) await gw.close().catch(() => {});
  });

  it('creates the configured admin once, keeps data across a restart, and a new admin email on a gateway with users creates nothing', async () => {
    const admin = { GATEWAY_ADMIN_EMAIL: 'Admin@Example.com', GATEWAY_ADMIN_PASSWORD: 'first-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
    const first = await startTestGateway(mode, { env: admin });
    open.push(first);
    let api = client(first.url);
    const cookie = await login(api, 'admin@example.com', 'first-password');
    const key = await createKey(api, cookie, { name: 'survives restarts' });
    const tenantId = (await api.get('/api-keys', { key })).body.data[0] && (await first.gateway.services.auth.authenticateApiKey(key)).tenantId;
    await insertInstance(first.gateway, tenantId);
    const sent = await api.post('/v1/messages/send', { key, body: { to: '5511987654321', text: 'kept' } });
    expect(sent.status).toBe(200);
    await first.gateway.close();

    // Same data, same admin (even with another password: an existing admin is never reset), plus a second admin.
    const second = await startTestGateway(mode, {
      reuse: first,
      env: { ...admin, GATEWAY_ADMIN_PASSWORD: 'other-password' },
    });
    open.push(second);
    api = client(second.url);
    const status = await api.get(`/v1/messages/status/${sent.body.data.id}`, { key });
    expect(status.status).toBe(200);
    expect(status.body.data.text).toBe('kept');
    expect(await login(api, 'admin@example.com', 'first-password')).toMatch(/^auth-session=/);
    expect(await second.gateway.infra.db.prisma.user.count({ where: { email: 'admin@example.com' } })).toBe(1);
    const tenant = await second.gateway.infra.db.prisma.tenant.findUnique({ where: { id: tenantId } });
    expect(tenant?.plan).toBe('enterprise');
    await second.gateway.close();

    // A configured admin is only the first account: a new email on a gateway with users creates nothing, and says so.
    const third = await startTestGateway(mode, { reuse: first, env: { GATEWAY_ADMIN_EMAIL: 'ops@example.com', GATEWAY_ADMIN_PASSWORD: 'ops-password' } });
    open.push(third);
    const refused = await client(third.url).post('/auth/sessions', { body: { email: 'ops@example.com', password: 'ops-password' } });
    expect(refused.status).toBe(401);
    expect(await third.gateway.infra.db.prisma.user.count({ where: { email: 'ops@example.com' } })).toBe(0);
    expect(await third.gateway.infra.db.prisma.tenant.count()).toBe(1);
    expect(third.logs.text()).toMatch(/GATEWAY_ADMIN_EMAIL names no user of this gateway/);
  });

  it('never writes keys, passwords or session tokens to the log', async () => {
    const gw = await startTestGateway(mode, { env: { LOG_LEVEL: 'trace', GATEWAY_ADMIN_EMAIL: 'logs@example.com', GATEWAY_ADMIN_PASSWORD: 'very-secret-password' } });
    open.push(gw);
    const api = client(gw.url);
    const cookie = await login(api, 'logs@example.com', 'very-secret-password');
    const key = await createKey(api, cookie, { name: 'logged?' });
    await api.get('/api-keys', { key });
    await api.post('/v1/messages/send', { headers: { 'x-api-key': key }, body: { to: '5511987654321', text: 'x' } });
    await api.post('/auth/sessions', { body: { email: 'logs@example.com', password: 'wrong-secret-password' } });
    await api.graphql('{ apiKeys { __typename } }', {}, { key });
    await api.delete('/auth/sessions', { cookie });

    const text = gw.logs.text();
    expect(gw.logs.lines.length).toBeGreaterThan(5);
    for (const secret of [key, key.slice(9, 30), 'very-secret-password', 'wrong-secret-password', cookie.split('=')[1]!]) {
      expect(text).not.toContain(secret);
    }
  });
});
