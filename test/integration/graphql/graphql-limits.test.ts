import { describe, expect, it } from 'vitest';
import { createKey } from '../../factories/tenants.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite } from '../../kit/suite.js';

const LIMITS = `{ me { tenant { plan limits {
  instances { used max } messagesToday { used max } requestsThisMinute { used max } } } } }`;

describe.each(MODES)('limits visible in GraphQL — $name', (mode) => {
  const suite = gatewaySuite(mode, { tenants: ['pro'], env: { RATE_LIMIT_PER_MINUTE: '500', TEST_KEY_DAILY_MESSAGES: '40', DAILY_MESSAGES_PRO: '900' } });

  it("shows the plan's instances, today's messages and this minute's requests, counted exactly", async () => {
    const { api } = suite;
    const [tenant] = suite.tenants;
    const key = await createKey(api, tenant!.cookie, { name: 'limits', testMode: false });
    for (const name of ['limits one', 'limits two']) expect((await api.post('/v1/chat/instances', { key, body: { name } })).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await api.post('/v1/messages/send', { key, body: { to: '5511955554444', text: `m${i}` } })).status).toBe(200);

    const answer = await api.graphql(LIMITS, {}, { key });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.me.tenant).toEqual({
      plan: 'pro',
      limits: {
        instances: { used: 2, max: 5 },
        messagesToday: { used: 3, max: 900 },
        // 2 creates, 3 sends and this query, with this key.
        requestsThisMinute: { used: 6, max: 500 },
      },
    });
  });

  it("shows a test key its own daily quota, and a session its user's requests", async () => {
    const { api } = suite;
    const [tenant] = suite.tenants;
    const testKey = await createKey(api, tenant!.cookie, { name: 'limits test', testMode: true });
    await api.post('/v1/messages/send', { key: testKey, body: { to: '5511955554444', text: 'test' } });
    const viaKey = (await api.graphql(LIMITS, {}, { key: testKey })).body.data.me.tenant.limits;
    expect(viaKey.messagesToday).toEqual({ used: 1, max: 40 });
    expect(viaKey.requestsThisMinute).toEqual({ used: 2, max: 500 });
    const viaCookie = (await api.graphql(LIMITS, {}, { cookie: tenant!.cookie })).body.data.me.tenant.limits;
    expect(viaCookie.messagesToday.max).toBe(900);
    expect(viaCookie.requestsThisMinute.max).toBe(500);
    expect(viaCookie.requestsThisMinute.used).toBeGreaterThanOrEqual(1);
  });

  it('refuses the limits without a caller', async () => {
    const answer = await suite.api.graphql(LIMITS);
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors?.map((e) => e.extensions?.code)).toEqual(['unauthorized']);
  });
});
