import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../../src/domain/apikeys/api-key-format.js';
import { failure } from '../../../helpers/http.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';
import { MODES } from '../../../kit/modes.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(MODES)('API keys — $name', (mode) => {

  const suite = sharedGatewaySuite(mode, { tenants: ['pro', 'pro'] });

  it('creates a key with a session cookie and shows the full key exactly once', async () => {
    const response = await suite.api.post('/api-keys', { cookie: suite.tenant.cookie, body: { name: 'ci', description: 'for CI', testMode: true } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: { id: expect.any(String), name: 'ci', key: expect.stringMatching(/^mgw_test_[0-9A-Za-z]{38}$/), testMode: true, createdAt: expect.stringMatching(ISO_MS) },
    });
    const { id, key } = response.body.data;

    const listed = await suite.api.get('/api-keys', { key });
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((k: { id: string }) => k.id === id);
    expect(entry).toEqual({
      id,
      name: 'ci',
      description: 'for CI',
      testMode: true,
      keyPrefix: key.slice(0, 12),
      createdAt: response.body.data.createdAt,
      lastUsedAt: expect.stringMatching(ISO_MS),
    });
    expect(listed.text).not.toContain(key);
  });

  it('stores only a SHA-256 hash of the key', async () => {
    const key = suite.tenant.liveKey;
    expect(key).toMatch(/^mgw_live_/);
    const row = await suite.gw.gateway.infra.db.prisma.apiKey.findUnique({ where: { keyHash: hashApiKey(key) } });
    expect(row).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
  });

  it('lists only the caller tenant\'s keys', async () => {
    const mine = await suite.api.get('/api-keys', { key: suite.tenant.liveKey });
    const theirs = await suite.api.get('/api-keys', { key: suite.other.liveKey });
    const mineIds = new Set(mine.body.data.map((k: { id: string }) => k.id));
    expect(theirs.body.data.length).toBeGreaterThan(0);
    for (const key of theirs.body.data) expect(mineIds.has(key.id)).toBe(false);
  });

  it.each([
    ['a missing name', { testMode: true }, /name/],
    ['an empty name', { name: '  ' }, /name/],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, /name/],
    ['a description over 500 characters', { name: 'ok', description: 'x'.repeat(501) }, /description/],
    ['a testMode that is not a boolean', { name: 'ok', testMode: 'yes' }, /testMode/],
  ])('refuses %s with 400 invalid_request naming the field', async (_label, body, field) => {
    const response = await suite.api.post('/api-keys', { cookie: suite.tenant.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(failure('invalid_request'));
    expect(response.body.error.message).toMatch(field);
  });

  it('lists keys with the session cookie as well as with a key, each seeing its own tenant only', async () => {
    const withCookie = await suite.api.get('/api-keys', { cookie: suite.tenant.cookie });
    expect(withCookie.status).toBe(200);
    const withKey = await suite.api.get('/api-keys', { key: suite.tenant.liveKey });
    expect(withCookie.body.data.map((k: { id: string }) => k.id).sort()).toEqual(withKey.body.data.map((k: { id: string }) => k.id).sort());
    const theirs = await suite.api.get('/api-keys', { cookie: suite.other.cookie });
    const mine = new Set(withKey.body.data.map((k: { id: string }) => k.id));
    expect(theirs.body.data.some((k: { id: string }) => mine.has(k.id))).toBe(false);
    expect(withCookie.body.data.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
  });

  it('takes only the credential each endpoint is documented with', async () => {
    const keyOnCookieEndpoint = await suite.api.post('/api-keys', { key: suite.tenant.liveKey, body: { name: 'x' } });
    expect(keyOnCookieEndpoint.status).toBe(401);
    expect(keyOnCookieEndpoint.body).toEqual(failure('unauthorized'));

    const forgedCookieOnList = await suite.api.get('/api-keys', { cookie: 'auth-session=forged' });
    expect(forgedCookieOnList.status).toBe(401);
    expect(forgedCookieOnList.body).toEqual(failure('unauthorized'));

    const xApiKeyOffTheMessagesEndpoints = await suite.api.get('/api-keys', { headers: { 'x-api-key': suite.tenant.liveKey } });
    expect(xApiKeyOffTheMessagesEndpoints.status).toBe(401);
    expect(xApiKeyOffTheMessagesEndpoints.body).toEqual(failure('unauthorized'));
    const onInstances = await suite.api.get('/v1/chat/instances', { headers: { 'x-api-key': suite.tenant.liveKey } });
    expect(onInstances.status).toBe(401);
    expect(onInstances.body.error).toEqual({
      code: 'unauthorized',
      message: 'X-API-Key is accepted on the /v1/messages endpoints only; send the key here as "Authorization: Bearer <key>".',
    });
  });

  it.each([
    ['no credential', {}, 'unauthorized'],
    ['a non-Bearer Authorization', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'unauthorized'],
    ['a malformed key', { authorization: 'Bearer not-a-key' }, 'invalid_api_key'],
    ['a key with a wrong checksum', { authorization: 'Bearer mgw_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA000000' }, 'invalid_api_key'],
  ])('answers %s with 401 %s', async (_label, headers, code) => {
    const response = await suite.api.get('/api-keys', { headers });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(failure(code));
  });

  it('revokes a key: it fails at once with 401 invalid_api_key and leaves the listing', async () => {
    const created = await suite.api.post('/api-keys', { cookie: suite.tenant.cookie, body: { name: 'short-lived' } });
    const { id, key } = created.body.data;
    expect((await suite.api.get('/api-keys', { key })).status).toBe(200);

    const revoked = await suite.api.delete(`/api-keys/${id}`, { cookie: suite.tenant.cookie });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, message: expect.any(String) });

    const after = await suite.api.get('/api-keys', { key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual(failure('invalid_api_key'));
    const listing = await suite.api.get('/api-keys', { key: suite.tenant.liveKey });
    expect(listing.body.data.map((k: { id: string }) => k.id)).not.toContain(id);

    const again = await suite.api.delete(`/api-keys/${id}`, { cookie: suite.tenant.cookie });
    expect(again.status).toBe(404);
  });

  it('refuses to revoke another tenant\'s key (403), an unknown id (404) or with an API key (401)', async () => {
    const theirs = (await suite.api.get('/api-keys', { key: suite.other.liveKey })).body.data[0].id;
    const forbidden = await suite.api.delete(`/api-keys/${theirs}`, { cookie: suite.tenant.cookie });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(failure('forbidden'));
    expect((await suite.api.get('/api-keys', { key: suite.other.liveKey })).status).toBe(200);

    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const missing = await suite.api.delete(`/api-keys/${id}`, { cookie: suite.tenant.cookie });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(failure('not_found'));
    }
    const withKey = await suite.api.delete(`/api-keys/${theirs}`, { key: suite.tenant.liveKey });
    expect(withKey.status).toBe(401);
  });
});
