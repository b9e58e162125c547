import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client, type Client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

const DEFAULTS = {
  calls: { reject: false, message: null },
  alwaysOnline: false,
  autoRead: false,
  ignore: { groups: false, broadcasts: false, status: true },
  historySync: { mode: 'recent', days: 30 },
  media: { keep: 'all', maxBytes: 64 * 1024 * 1024 },
  sending: { minIntervalMs: 0, jitterMs: 0, newContactsPerHour: null, typing: false },
  proxy: null,
};

// An instance's settings as one object (docs/settings.md), through REST on both variants and GraphQL.
describe.each(MODES)('instance settings — $name', (mode) => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let other: TestTenant;
  let v1Id: string;
  let sessionId: string;

  beforeAll(async () => {
    gw = await startTestGateway(mode);
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    other = await createTenant(gw.gateway, api);
    const v1 = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'Settings v1' } });
    expect(v1.status, v1.text).toBe(201);
    v1Id = v1.body.data.id;
    const session = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: 'Settings s' } });
    expect(session.status, session.text).toBe(201);
    sessionId = session.body.data.instanceId;
  });
  afterAll(() => gw?.close());

  it('answers the defaults until something is set, on both variants', async () => {
    const v1 = await api.get(`/v1/chat/instances/${v1Id}/settings`, { key: tenant.liveKey });
    expect(v1.status, v1.text).toBe(200);
    expect(v1.body.data).toEqual(DEFAULTS);
    const session = await api.get(`/chat/instances/${sessionId}/settings`, { cookie: tenant.cookie });
    expect(session.status, session.text).toBe(200);
    expect(session.body.data).toEqual(DEFAULTS);
  });

  it('replaces each field given and keeps the others; null resets historySync and media', async () => {
    const first = await api.put(`/v1/chat/instances/${v1Id}/settings`, {
      key: tenant.liveKey,
      body: { ignore: { groups: true }, sending: { minIntervalMs: 1500, jitterMs: 500 }, historySync: { mode: 'none' }, media: { keep: ['image'] } },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toEqual({
      ...DEFAULTS,
      ignore: { groups: true, broadcasts: false, status: true },
      sending: { minIntervalMs: 1500, jitterMs: 500, newContactsPerHour: null, typing: false },
      historySync: { mode: 'none', days: 30 },
      media: { keep: ['image'], maxBytes: 64 * 1024 * 1024 },
    });
    // A second PUT names only what it changes; the rest stays as the first one left it.
    const second = await api.put(`/v1/chat/instances/${v1Id}/settings`, { key: tenant.liveKey, body: { sending: { newContactsPerHour: 20 }, media: null } });
    expect(second.status, second.text).toBe(200);
    expect(second.body.data.ignore).toEqual({ groups: true, broadcasts: false, status: true });
    expect(second.body.data.sending).toEqual({ minIntervalMs: 0, jitterMs: 0, newContactsPerHour: 20, typing: false });
    expect(second.body.data.media).toEqual(DEFAULTS.media);
    // The instance's detail shows the same history and media settings as its own fields.
    const detail = await api.get(`/v1/chat/instances/${v1Id}`, { key: tenant.liveKey });
    expect(detail.body.data.historySync).toEqual({ mode: 'none', days: 30 });
    expect((await api.get(`/v1/chat/instances/${v1Id}/settings`, { key: tenant.liveKey })).body.data).toEqual(second.body.data);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const before = (await api.get(`/chat/instances/${sessionId}/settings`, { cookie: tenant.cookie })).body.data;
    const cases: Array<[unknown, string]> = [
      [{ calls: { reject: 'yes' } }, 'calls.reject'],
      [{ calls: { message: 'hello' } }, 'calls.reject'],
      [{ calls: { reject: true, message: '' } }, 'calls.message'],
      [{ alwaysOnline: 1 }, 'alwaysOnline'],
      [{ autoRead: null }, 'autoRead'],
      [{ ignore: { channels: true } }, 'ignore.channels'],
      [{ sending: { minIntervalMs: -1 } }, 'sending.minIntervalMs'],
      [{ sending: { jitterMs: 1.5 } }, 'sending.jitterMs'],
      [{ sending: { newContactsPerHour: 0 } }, 'sending.newContactsPerHour'],
      [{ sending: { typing: 'on' } }, 'sending.typing'],
      [{ historySync: { mode: 'all' } }, 'historySync.mode'],
      [{ media: { keep: 'some' } }, 'media.keep'],
      [{ proxy: { url: 'ftp://proxy.example:21' } }, 'proxy.url'],
      [{ proxy: { url: 'http://proxy.example' } }, 'proxy.url'],
      [{ proxy: 'http://proxy.example:8080' }, 'proxy'],
      [{ colour: 'blue' }, 'colour'],
      [[], 'body'],
    ];
    for (const [body, field] of cases) {
      const refused = await api.put(`/chat/instances/${sessionId}/settings`, { cookie: tenant.cookie, body });
      expect(refused.status, `${JSON.stringify(body)}: ${refused.text}`).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
      if (field !== 'body') expect(refused.body.error.message).toContain(field);
    }
    expect((await api.get(`/chat/instances/${sessionId}/settings`, { cookie: tenant.cookie })).body.data).toEqual(before);
  });

  it('refuses a setting the engine cannot carry with 422 not_supported, naming it', async () => {
    // The sandbox has no proxy: its instances reach no outside network.
    const refused = await api.put(`/v1/chat/instances/${v1Id}/settings`, { key: tenant.liveKey, body: { proxy: { url: 'http://127.0.0.1:3128' }, autoRead: true } });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.code).toBe('not_supported');
    expect(refused.body.error.message).toContain('proxy');
    expect((await api.get(`/v1/chat/instances/${v1Id}/settings`, { key: tenant.liveKey })).body.data.autoRead).toBe(false);
  });

  it("is the owner's alone: another tenant's key and an unknown id are 404", async () => {
    for (const answer of [
      await api.get(`/v1/chat/instances/${v1Id}/settings`, { key: other.liveKey }),
      await api.put(`/v1/chat/instances/${v1Id}/settings`, { key: other.liveKey, body: { autoRead: true } }),
      await api.get(`/v1/chat/instances/00000000-0000-4000-8000-000000000000/settings`, { key: tenant.liveKey }),
    ]) {
      expect([403, 404], answer.text).toContain(answer.status);
    }
    const unauthenticated = await api.get(`/v1/chat/instances/${v1Id}/settings`);
    expect(unauthenticated.status).toBe(401);
  });

  it('reads and changes the same settings through GraphQL, with the same refusals', async () => {
    const read = await api.graphql(`query($id: ID!) { instance(id: $id) { settings { calls { reject message } sending { minIntervalMs } proxy { url } } } }`, { id: sessionId }, { key: tenant.liveKey });
    expect(read.body.errors, read.text).toBeUndefined();
    expect(read.body.data.instance.settings).toEqual({ calls: { reject: false, message: null }, sending: { minIntervalMs: 0 }, proxy: null });
    const changed = await api.graphql(
      `mutation($input: UpdateInstanceSettingsInput!) { updateInstanceSettings(input: $input) { settings { ignore { status } sending { minIntervalMs typing } } userErrors { code field message } } }`,
      { input: { id: sessionId, settings: { ignore: { status: true }, sending: { minIntervalMs: 2000 } } } },
      { key: tenant.liveKey },
    );
    expect(changed.body.errors, changed.text).toBeUndefined();
    expect(changed.body.data.updateInstanceSettings).toEqual({ settings: { ignore: { status: true }, sending: { minIntervalMs: 2000, typing: false } }, userErrors: [] });
    const refused = await api.graphql(
      `mutation($input: UpdateInstanceSettingsInput!) { updateInstanceSettings(input: $input) { settings { autoRead } userErrors { code field } } }`,
      { input: { id: sessionId, settings: { sending: { jitterMs: -5 } } } },
      { key: tenant.liveKey },
    );
    expect(refused.body.data.updateInstanceSettings.settings).toBeNull();
    expect(refused.body.data.updateInstanceSettings.userErrors).toEqual([{ code: 'invalid_request', field: ['sending', 'jitterMs'] }]);
    expect((await api.get(`/chat/instances/${sessionId}/settings`, { cookie: tenant.cookie })).body.data.sending.minIntervalMs).toBe(2000);
  });

  it('lets either variant subscribe its webhook to call and instance.restricted by name', async () => {
    const set = await api.put(`/v1/chat/instances/${v1Id}`, { key: tenant.liveKey, body: { webhookEvents: ['messages.upsert', 'call', 'instance.restricted'] } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.webhookEvents).toEqual(['messages.upsert', 'call', 'instance.restricted']);
  });
});
