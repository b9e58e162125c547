import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance } from '../../../factories/sandbox.js';
import type { TestTenant } from '../../../factories/tenants.js';
import { CreateApiKey, CreateInstance, SendMedia, SendMessage, SendText, SetWebhook, UpdateInstance } from '../../../graphql/operations.js';
import type { Client } from '../../../helpers/http.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';
import { MODES } from '../../../kit/modes.js';

/** Text PostgreSQL cannot store: a NUL character, and an unpaired UTF-16 surrogate. */
const UNSTORABLE = [
  ['a NUL character', 'bad\u0000text', 'must not contain the NUL character (\\u0000)'],
  ['an unpaired surrogate', 'bad\ud800text', 'must be valid Unicode text (it contains an unpaired surrogate)'],
] as const;

describe.each(MODES)('text that cannot be stored — $name', (mode) => {
  const suite = sharedGatewaySuite(mode);
  let api: Client;
  let tenant: TestTenant;
  let v1Id: string;
  let sessionId: string;

  beforeAll(async () => {
    api = suite.api;
    tenant = suite.tenants[0]!;
    v1Id = (await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'Stores text' } })).body.data.id;
    sessionId = (await connectedSessionInstance(api, tenant.cookie, 'Session text')).id;
  });

  /** Every documented string field of every REST endpoint that takes a body, with a valid body around it. */
  const restCases = () => {
    const key = { key: tenant.liveKey };
    const cookie = { cookie: tenant.cookie };
    return [
      ['POST /auth/sessions', 'post', '/auth/sessions', {}, { email: 'someone@example.com', password: 'long-password' }, ['email', 'password']],
      ['POST /api-keys', 'post', '/api-keys', cookie, { name: 'key', description: 'about it' }, ['name', 'description']],
      ['POST /v1/messages/send', 'post', '/v1/messages/send', key, { to: '5511987654321', text: 'hello' }, ['to', 'text']],
      ['POST /v1/chat/instances', 'post', '/v1/chat/instances', key, { name: 'New line', description: 'd', webhookUrl: 'https://hooks.example.com/a' }, ['name', 'description', 'webhookUrl']],
      ['PUT /v1/chat/instances/<id>', 'put', `/v1/chat/instances/${v1Id}`, key, { name: 'Renamed', description: 'd' }, ['name', 'description', 'webhookUrl']],
      ['POST /v1/chat/instances/<id>/webhook', 'post', `/v1/chat/instances/${v1Id}/webhook`, key, { url: 'https://hooks.example.com/a' }, ['url']],
      ['POST /chat/instances', 'post', '/chat/instances', cookie, { name: 'New session', webhookUrl: 'https://hooks.example.com/a' }, ['name', 'webhookUrl']],
      ['PUT /chat/instances/<id>', 'put', `/chat/instances/${sessionId}`, cookie, { name: 'Renamed session' }, ['name', 'webhookUrl']],
      ['POST /chat/instances/<id>/send-text', 'post', `/chat/instances/${sessionId}/send-text`, cookie, { to: '5511987654321', message: 'hi' }, ['to', 'message']],
      [
        'POST /chat/instances/<id>/send-media',
        'post',
        `/chat/instances/${sessionId}/send-media`,
        cookie,
        { to: '5511987654321', mediaUrl: 'https://media.example.com/a.png', mediaType: 'image', caption: 'c' },
        ['to', 'mediaUrl', 'mediaType', 'caption'],
      ],
      ['POST /sandbox/messages', 'post', '/sandbox/messages', {}, { from: '5511900000009', to: '5511900000008', text: 'hi', pushName: 'Ana' }, ['from', 'to', 'text', 'pushName']],
      ['POST /sandbox/scan', 'post', '/sandbox/scan', {}, { code: 'sandbox:x', phone: '+5511900000007' }, ['code', 'phone']],
    ] as const;
  };

  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('refuses it in every documented string field of every REST endpoint with 400 naming the field', async () => {
    for (const [label, method, path, auth, body, fields] of restCases()) {
      for (const field of fields) {
        for (const [, value, rule] of UNSTORABLE) {
          const response = await api.request(method.toUpperCase(), path, { ...auth, body: { ...body, [field]: value } });
          expect({ label, field, status: response.status, body: response.body }).toEqual({
            label,
            field,
            status: 400,
            // Other checks may report beside it (a webhook host that does not resolve here); the field's own comes first.
            body: { success: false, error: { code: 'invalid_request', message: expect.stringMatching(new RegExp(`^${escape(`${field}: ${rule}`)}(;|$)`)) } },
          });
        }
      }
    }
    // Inside arrays too: the path names the element.
    const events = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'Evented', webhookEvents: ['qr.update', 'x\u0000'] } });
    expect(events.body).toEqual({ success: false, error: { code: 'invalid_request', message: `webhookEvents.1: ${UNSTORABLE[0][2]}` } });
    // Nothing was stored on the way.
    expect((await api.get('/v1/chat/instances', { key: tenant.liveKey })).body.data).toHaveLength(2);
  });

  it('refuses it in the GraphQL mutations with a userError naming the field', async () => {
    const auth = { key: tenant.liveKey };
    const refused = (field: string, rule: string) => expect.arrayContaining([{ code: 'invalid_request', field: [field], message: rule }]);
    for (const [, value, rule] of UNSTORABLE) {
      const send = (await api.operation(SendMessage, { input: { to: '5511987654321', text: value } }, auth)).body.data!.sendMessage;
      expect(send).toEqual({ message: null, userErrors: [{ code: 'invalid_request', field: ['text'], message: rule }] });

      const create = (await api.operation(CreateInstance, { input: { name: 'ok name', description: value } }, auth)).body.data!.createInstance;
      expect(create.userErrors).toEqual(refused('description', rule));

      const update = (await api.operation(UpdateInstance, { input: { id: v1Id, name: value } }, auth)).body.data!.updateInstance;
      expect(update.userErrors).toEqual(refused('name', rule));

      const hook = (await api.operation(SetWebhook, { input: { instanceId: v1Id, url: value } }, auth)).body.data!.setWebhook;
      expect(hook.userErrors).toEqual(refused('url', rule));

      const text = (await api.operation(SendText, { input: { instanceId: sessionId, to: '5511987654321', message: value } }, auth)).body.data!.sendText;
      expect(text.userErrors).toEqual(refused('message', rule));

      const media = (
        await api.operation(SendMedia, { input: { instanceId: sessionId, to: '5511987654321', mediaUrl: 'https://m.example.com/a.png', mediaType: 'image', caption: value } }, auth)
      ).body.data!.sendMedia;
      expect(media.userErrors).toEqual(refused('caption', rule));

      const key = (await api.operation(CreateApiKey, { input: { name: value } }, { cookie: tenant.cookie })).body.data!.createApiKey;
      expect(key.userErrors).toEqual(refused('name', rule));
    }
  });
});
