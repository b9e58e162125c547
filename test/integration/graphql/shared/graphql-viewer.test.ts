import { describe, expect, it } from 'vitest';
import { MODES } from '../../../kit/modes.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';

const VIEWER = '{ viewer { tenant { name } user { email } apiKey { name } } }';

describe.each(MODES)('GraphQL viewer: who is signed in, without a 401 — $name', (mode) => {
  const suite = sharedGatewaySuite(mode);

  it('is null with 200 and no error without credentials or with an ended session; `me` still refuses', async () => {
    for (const options of [{}, { cookie: 'auth-session=not-a-session' }]) {
      const anonymous = await suite.api.graphql(VIEWER, {}, options);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toEqual({ data: { viewer: null } });
    }
    const me = await suite.api.graphql('{ me { tenant { name } } }');
    expect(me.body.errors?.[0]?.extensions?.code).toBe('unauthorized');
    // What a browser client asks for: the GraphQL response media type, where a refusal is a 401 and viewer is not.
    const accept = { 'accept': 'application/graphql-response+json' };
    expect((await suite.api.graphql('{ me { tenant { name } } }', {}, { headers: accept })).status).toBe(401);
    expect((await suite.api.graphql(VIEWER, {}, { headers: accept })).status).toBe(200);
  });

  it('is the caller with a session or a key, as `me`', async () => {
    const [tenant] = suite.tenants;
    const bySession = await suite.api.graphql(VIEWER, {}, { cookie: tenant!.cookie });
    expect(bySession.body.data.viewer).toEqual({ tenant: { name: tenant!.email }, user: { email: tenant!.email }, apiKey: null });
    const byKey = await suite.api.graphql(VIEWER, {}, { key: tenant!.liveKey });
    expect(byKey.body.data.viewer).toMatchObject({ user: null, apiKey: { name: 'live' } });
    // A malformed key is an invalid credential, not a signed-out caller: still null, never an error.
    const badKey = await suite.api.graphql(VIEWER, {}, { key: 'mgw_live_nope' });
    expect(badKey.body).toEqual({ data: { viewer: null } });
  });
});
