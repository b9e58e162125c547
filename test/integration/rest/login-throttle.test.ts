import { describe, expect, it } from 'vitest';
import { createTenant } from '../../factories/tenants.js';
import type { Client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite } from '../../kit/suite.js';

const LIMITS = { LOGIN_MAX_PER_EMAIL: '5', LOGIN_MAX_PER_IP: '8', LOGIN_BACKOFF_S: '1', TRUST_PROXY: 'true' };

/** `count` logins sent at once, each with its own body and X-Forwarded-For: the statuses, in order. */
async function loginsAtOnce(api: Client, count: number, attempt: (i: number) => { email: string; password: string; forwardedFor: string }) {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const { forwardedFor, ...body } = attempt(i);
      return api.post('/auth/sessions', { body, headers: { 'x-forwarded-for': forwardedFor } });
    }),
  );
  return responses;
}

/**
 * How many attempts past the free ones a burst lasting `ms` may have had checked: one each time a wait
 * passed, the waits 1 s, 2 s, 4 s… (LOGIN_BACKOFF_S=1). A burst under a second has none.
 */
const waitsWithin = (ms: number) => Math.floor(Math.log2(ms / 1000 + 1));

/** The statuses of a burst, and the most 401s the throttle may have let through (`free` and the waits passed). */
async function burst<R extends { status: number }>(free: number, send: () => Promise<R[]>) {
  const started = Date.now();
  const responses = await send();
  return { responses, counts: tally(responses), most: free + waitsWithin(Date.now() - started) };
}

const tally = (responses: Array<{ status: number }>) => {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

/** Tries the login every 100 ms until it passes or `deadlineMs` is over: the last answer. */
async function loginWhenAllowed(api: Client, body: { email: string; password: string }, forwardedFor: string, deadlineMs = 30_000) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const response = await api.post('/auth/sessions', { body, headers: { 'x-forwarded-for': forwardedFor } });
    if (response.status !== 429 || Date.now() > deadline) return response;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(MODES)('login throttle — $name', (mode) => {
  describe('one trusted proxy (TRUST_PROXY_HOPS=1)', () => {
    const suite = gatewaySuite(mode, { env: { ...LIMITS, TRUST_PROXY_HOPS: '1' }, tenants: [] });

    it('verifies at most LOGIN_MAX_PER_EMAIL of 60 parallel guesses; the owner signs in once the wait has passed', async () => {
      const { gw, api } = suite;
      const owner = await createTenant(gw.gateway, api);
      const { responses, counts, most } = await burst(5, () =>
        loginsAtOnce(api, 60, (i) => ({ email: owner.email, password: `guess-${i}`, forwardedFor: `198.51.100.${i % 60}` })),
      );
      expect(counts[401]).toBeGreaterThanOrEqual(5);
      expect(counts[401]).toBeLessThanOrEqual(most);
      expect(counts[429]).toBe(60 - counts[401]!);
      const refused = responses.find((r) => r.status === 429)!;
      expect(refused.body.error).toMatchObject({ code: 'rate_limit_exceeded', retryAfter: expect.any(Number) });
      expect(refused.headers.get('retry-after')).toBe(String(refused.body.error.retryAfter));

      const signedIn = await loginWhenAllowed(api, { email: owner.email, password: owner.password }, '198.51.100.201');
      expect(signedIn.status).toBe(200);
      // The success cleared the email's count: the free attempts are back.
      const after = await loginsAtOnce(api, 2, (i) => ({ email: owner.email, password: `again-${i}`, forwardedFor: '198.51.100.202' }));
      expect(tally(after)).toEqual({ 401: 2 });
    }, 120_000);

    it('GraphQL signIn takes from the same throttle, at once', async () => {
      const { gw, api } = suite;
      const owner = await createTenant(gw.gateway, api);
      const signIn = 'mutation ($input: SignInInput!) { signIn(input: $input) { user { email } userErrors { code } } }';
      const { counts, most } = await burst(5, async () => {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            api.graphql(signIn, { input: { email: owner.email, password: `guess-${i}` } }, { headers: { 'x-forwarded-for': `198.51.100.${100 + i}` } }),
          ),
        );
        const codes = answers.map((a) => a.body.data?.signIn?.userErrors?.[0]?.code ?? a.body.errors?.[0]?.extensions?.code);
        return codes.map((code) => ({ status: code === 'unauthorized' ? 401 : code === 'rate_limit_exceeded' ? 429 : 0 }));
      });
      expect(counts[401]).toBeGreaterThanOrEqual(5);
      expect(counts[401]).toBeLessThanOrEqual(most);
      expect(counts[429]).toBe(20 - counts[401]!);
    }, 120_000);

    it('counts parallel guesses per address by the rightmost X-Forwarded-For entry, whatever the client wrote before it', async () => {
      const { gw, api } = suite;
      const { counts, most } = await burst(8, () =>
        loginsAtOnce(api, 60, (i) => ({ email: `spray-${i}@example.com`, password: 'x', forwardedFor: `203.0.113.${i}, 192.0.2.1` })),
      );
      expect(counts[401]).toBeGreaterThanOrEqual(8);
      expect(counts[401]).toBeLessThanOrEqual(most);
      expect(counts[429]).toBe(60 - counts[401]!);
      // Another address is not held back by it.
      const owner = await createTenant(gw.gateway, api);
      const other = await api.post('/auth/sessions', { body: { email: owner.email, password: owner.password }, headers: { 'x-forwarded-for': '203.0.113.7, 192.0.2.2' } });
      expect(other.status).toBe(200);
    }, 120_000);
  });

  describe('two trusted proxies (TRUST_PROXY_HOPS=2)', () => {
    const suite = gatewaySuite(mode, { env: { ...LIMITS, TRUST_PROXY_HOPS: '2' }, tenants: [] });

    it('counts the second entry from the right: neither the client-written left part nor the nearest proxy moves it', async () => {
      const { gw, api } = suite;
      const { counts, most } = await burst(8, () =>
        loginsAtOnce(api, 60, (i) => ({ email: `spray-${i}@example.com`, password: 'x', forwardedFor: `203.0.113.${i}, 192.0.2.1, 10.0.0.${i % 4}` })),
      );
      expect(counts[401]).toBeGreaterThanOrEqual(8);
      expect(counts[401]).toBeLessThanOrEqual(most);
      expect(counts[429]).toBe(60 - counts[401]!);
      const owner = await createTenant(gw.gateway, api);
      const other = await api.post('/auth/sessions', { body: { email: owner.email, password: owner.password }, headers: { 'x-forwarded-for': '192.0.2.3, 10.0.0.1' } });
      expect(other.status).toBe(200);
    }, 120_000);
  });
});
