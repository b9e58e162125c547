import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import type { TestGateway } from '../../kit/gateway.js';
import { client, failure } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';

describe.each(MODES)('sessions — $name', (mode) => {
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;

  const suite = gatewaySuite(mode, { env: { LOGIN_MAX_PER_EMAIL: '3', LOGIN_MAX_PER_IP: '8' }, tenants: ['pro'] });
  beforeAll(async () => {
    ({ gw, api } = suite);
    tenant = suite.tenants[0]!;
  });

  it('logs in, sets a hardened auth-session cookie and answers the documented body', async () => {
    const response = await api.post('/auth/sessions', { body: { email: tenant.email.toUpperCase(), password: tenant.password } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        user: { id: expect.any(String), email: tenant.email },
        tenant: { id: tenant.tenantId, name: tenant.email, plan: 'pro' },
        expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    const lifetime = Date.parse(response.body.data.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^auth-session=[\w-]{43};/);
    expect(cookie).toMatch(/path=\//i);
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(cookie).not.toMatch(/secure/i); // plain HTTP here; Secure is set when served over HTTPS
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const wrongPassword = await api.post('/auth/sessions', { body: { email: tenant.email, password: 'nope-nope' } });
    const unknownEmail = await api.post('/auth/sessions', { body: { email: 'ghost@example.com', password: 'nope-nope' } });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual(failure('unauthorized'));
    }
    expect(wrongPassword.body.error.message).toBe(unknownEmail.body.error.message);
    expect(wrongPassword.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    ['no body', undefined],
    ['missing password', { email: 'a@b.co' }],
    ['missing email', { password: 'x' }],
    ['non-string email', { email: 42, password: 'x' }],
    ['a JSON array', ['a@b.co', 'x']],
  ])('refuses a login with %s as 400 invalid_request', async (_label, body) => {
    const response = await api.post('/auth/sessions', body === undefined ? {} : { body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(failure('invalid_request'));
  });

  it('locks out an email after repeated failures, with retryAfter and Retry-After', async () => {
    const victim = await createTenant(gw.gateway, api);
    for (let i = 0; i < 3; i++) {
      expect((await api.post('/auth/sessions', { body: { email: victim.email, password: `guess-${i}` } })).status).toBe(401);
    }
    const locked = await api.post('/auth/sessions', { body: { email: victim.email, password: victim.password } });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      success: false,
      error: { code: 'rate_limit_exceeded', message: expect.any(String), retryAfter: expect.any(Number) },
    });
    expect(locked.body.error.retryAfter).toBeGreaterThan(0);
    expect(locked.body.error.retryAfter).toBeLessThanOrEqual(900);
    expect(locked.headers.get('retry-after')).toBe(String(locked.body.error.retryAfter));
    // Another user is not locked out by it.
    expect((await api.post('/auth/sessions', { body: { email: tenant.email, password: tenant.password } })).status).toBe(200);
  });

  it('locks out a client address that guesses across many emails', async () => {
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) {
      status = (await api.post('/auth/sessions', { body: { email: `spray-${i}@example.com`, password: 'x' } })).status;
    }
    expect(status).toBe(429);
  });

  it('logs out: the cookie stops working at once', async () => {
    // The address above is locked out now; a fresh session comes from the domain directly.
    const session = await gw.gateway.services.auth.login({ email: tenant.email, password: tenant.password }, '10.9.9.9');
    const cookie = `auth-session=${session.token}`;
    expect((await api.post('/api-keys', { cookie, body: { name: 'before logout' } })).status).toBe(201);
    const out = await api.delete('/auth/sessions', { cookie });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, message: expect.any(String) });
    expect(out.headers.get('set-cookie')).toMatch(/auth-session=;/);
    const after = await api.post('/api-keys', { cookie, body: { name: 'after logout' } });
    expect(after.status).toBe(401);
    expect(after.body).toEqual(failure('unauthorized'));
  });

  it('refuses a forged session cookie', async () => {
    const response = await api.post('/api-keys', { cookie: 'auth-session=forged-token', body: { name: 'x' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(failure('unauthorized'));
  });
});
