import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client, type Client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

// An instance's historySync (docs/conversations.md, "History"): given at creation or later, shown in
// its detail, the default when never given, and refused by field when malformed.
describe.each(MODES)('an instance body’s historySync — $name', (mode) => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;

  beforeAll(async () => {
    gw = await startTestGateway(mode);
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
  });
  afterAll(() => gw?.close());

  it('is the default until given, then what was given, on both variants', async () => {
    const v1 = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'History v1', historySync: { mode: 'full' } } });
    expect(v1.status, v1.text).toBe(201);
    const v1Detail = await api.get(`/v1/chat/instances/${v1.body.data.id}`, { key: tenant.liveKey });
    expect(v1Detail.body.data.historySync).toEqual({ mode: 'full', days: 30 });

    const session = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: 'History s' } });
    expect(session.status, session.text).toBe(201);
    const id = session.body.data.instanceId as string;
    expect((await api.get(`/chat/instances/${id}`, { cookie: tenant.cookie })).body.data.historySync).toEqual({ mode: 'recent', days: 30 });
    const changed = await api.put(`/chat/instances/${id}`, { cookie: tenant.cookie, body: { historySync: { mode: 'recent', days: 7 } } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.historySync).toEqual({ mode: 'recent', days: 7 });
    const cleared = await api.put(`/chat/instances/${id}`, { cookie: tenant.cookie, body: { historySync: null } });
    expect(cleared.body.data.historySync).toEqual({ mode: 'recent', days: 30 });
  });

  it('refuses a malformed one, naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ mode: 'everything' }, 'historySync.mode'],
      [{ mode: 'recent', days: 0 }, 'historySync.days'],
      [{ mode: 'recent', days: 1.5 }, 'historySync.days'],
      [{ mode: 'recent', extra: true }, 'historySync'],
      ['full', 'historySync'],
    ];
    for (const [historySync, field] of cases) {
      const refused = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: `Bad ${field}`, historySync } });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
      expect(refused.body.error.message).toContain(field);
    }
  });
});
