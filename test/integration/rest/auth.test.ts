import { describe, expect, it } from 'vitest';
import { createTenant } from '../../factories/tenants.js';
import { failure } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';

describe.each(MODES)('sessions — $name', (mode) => {

  const suite = gatewaySuite(mode, { env: { LOGIN_MAX_PER_EMAIL: '3', LOGIN_MAX_PER_IP: '8' }, tenants: ['pro'] });

  it('logs in, sets a hardened auth-session cookie and answers the documented body', async () => {
    const response = await suite.api.post('/auth/sessions', { body: { email: suite.tenant.email.toUpperCase(), password: suite.tenant.password } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        user: { id: expect.any(String), email: suite.tenant.email },
        tenant: { id: suite.tenant.tenantId, name: suite.tenant.email, plan: 'pro' },
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
    const wrongPassword = await suite.api.post('/auth/sessions', { body: { email: suite.tenant.email, password: 'nope-nope' } });
    const unknownEmail = await suite.api.post('/auth/sessions', { body: { email: 'ghost@example.com', password: 'nope-nope' } });
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
    const response = await suite.api.post('/auth/sessions', body === undefined ? {} : { body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(failure('invalid_request'));
  });

  it('locks out an email after repeated failures, with retryAfter and Retry-After', async () => {
    const victim = await createTenant(suite.gw.gateway, suite.api);
    for (let i = 0; i < 3; i++) {
      expect((await suite.api.post('/auth/sessions', { body: { email: victim.email, password: `guess-${i}` } })).status).toBe(401);
    }
    const locked = await suite.api.post('/auth/sessions', { body: { email: victim.email, password: victim.password } });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      success: false,
      error: { code: 'rate_limit_exceeded', message: expect.any(String), retryAfter: expect.any(Number) },
    });
    expect(locked.body.error.retryAfter).toBeGreaterThan(0);
    expect(locked.body.error.retryAfter).toBeLessThanOrEqual(900);
    expect(locked.headers.get('retry-after')).toBe(String(locked.body.error.retryAfter));
    // Another user is not locked out by it.
    expect((await suite.api.post('/auth/sessions', { body: { email: suite.tenant.email, password: suite.tenant.password } })).status).toBe(200);
  });

  it('locks out a client address that guesses across many emails', async () => {
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) {
      status = (await suite.api.post('/auth/sessions', { body: { email: `spray-${i}@example.com`, password: 'x' } })).status;
    }
    expect(status).toBe(429);
  });

  it('logs out: the cookie stops working at once', async () => {
    // The address above is locked out now; a fresh session comes from the domain directly.
    const session = await suite.gw.gateway.services.auth.login({ email: suite.tenant.email, password: suite.tenant.password }, '10.9.9.9');
    const cookie = `auth-session=${session.token}`;
    expect((await suite.api.post('/api-keys', { cookie, body: { name: 'before logout' } })).status).toBe(201);
    const out = await suite.api.delete('/auth/sessions', { cookie });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, message: expect.any(String) });
    expect(out.headers.get('set-cookie')).toMatch(/auth-session=;/);
    const after = await suite.api.post('/api-keys', { cookie, body: { name: 'after logout' } });
    expect(after.status).toBe(401);
    expect(after.body).toEqual(failure('unauthorized'));
  });

  it('refuses a forged session cookie', async () => {
    const response = await suite.api.post('/api-keys', { cookie: 'auth-session=forged-token', body: { name: 'x' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(failure('unauthorized'));
  });
});
