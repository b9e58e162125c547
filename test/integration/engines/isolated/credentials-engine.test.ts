import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../../src/engines/catalogue.js';
import { keyedEngine } from '../../../engines/keyed/descriptor.js';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { gatewaySuite } from '../../../kit/suite.js';

// An engine with credentials of its own shape, from test/, through the catalogue alone: no file of
// src names its field, its schemas or its integration.
catalogue.register(keyedEngine);

let accounts = 0;
/** A new account on the engine's network (of this file's gateway alone), with its token and phone. */
const newAccount = () => ({ account: String(100_000 + ++accounts), token: `token-${accounts}-${randomBytes(6).toString('hex')}`, phone: newPhone() });

describe('an engine with its own credentials field, registered from outside src', () => {
  const suite = gatewaySuite(MODES[0]!, { env: { ENGINES: 'sandbox,keyed' } });
  const key = () => suite.tenants[0]!.liveKey;
  const cookie = () => suite.tenants[0]!.cookie;
  const v1Detail = async (id: string) => (await suite.api.get(`/v1/chat/instances/${id}`, { key: key() })).body.data;
  const count = async () => (await suite.api.get('/v1/chat/instances', { key: key() })).body.data.length as number;

  async function openAccount() {
    const account = newAccount();
    expect((await suite.api.post('/keyed/accounts', { body: account })).status).toBe(200);
    return account;
  }

  it('creates an instance through REST with its field: the engine keeps the value, links it, and finds the instance by its external id', async () => {
    const { api } = suite;
    const { account, token, phone } = await openAccount();
    const created = await api.post('/v1/chat/instances', { key: key(), body: { name: `keyed ${account}`, integration: 'CHAT-KEYED', keyed: { account, token } } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.qrCode).toBeNull();
    const id = created.body.data.id as string;
    const detail = await eventually(() => v1Detail(id), (d) => d.status === 'connected', 10_000);
    expect(detail).toMatchObject({ integration: 'CHAT-KEYED', phoneNumber: phone });

    // Out: the account's outbox on the network has the text.
    const to = newPhone().slice(1);
    const sent = await api.post('/v1/messages/send', { key: key(), body: { instanceId: id, to, text: 'sent with keyed credentials' } });
    expect(sent.status, sent.text).toBe(200);
    const outbox = await eventually(() => api.get(`/keyed/accounts/${account}/outbox`), (r) => r.body.data.length > 0);
    expect(outbox.body.data).toEqual([{ to, text: 'sent with keyed credentials' }]);

    // In: the network names the account; the engine finds the instance by the external id it gave at create.
    const received = await api.post('/keyed/inbound', { body: { account, from: to, text: 'hello to the account' } });
    expect(received.status, received.text).toBe(200);
    const list = await api.get('/v1/messages/list?limit=100', { key: key() });
    expect(list.body.data.filter((m: { instanceId: string; direction: string }) => m.instanceId === id && m.direction === 'in')).toEqual([
      expect.objectContaining({ text: 'hello to the account', from: to }),
    ]);

    // The session variant and GraphQL take the same field (GraphQL's input types named by the descriptor).
    const second = await openAccount();
    const session = await api.post('/chat/instances', { cookie: cookie(), body: { name: `keyed session ${second.account}`, integration: 'CHAT-KEYED', keyed: { account: second.account, token: second.token } } });
    expect(session.status, session.text).toBe(201);
    await eventually(() => v1Detail(session.body.data.instanceId), (d) => d.status === 'connected' && d.phoneNumber === second.phone, 10_000);
    const third = await openAccount();
    const byGraphql = await api.graphql(
      'mutation($input: CreateInstanceInput!) { createInstance(input: $input) { instance { id integration } qrCode { attemptId } userErrors { field message } } }',
      { input: { name: `keyed graphql ${third.account}`, integration: 'CHAT-KEYED', keyed: { account: third.account, token: third.token } } },
      { key: key() },
    );
    expect(byGraphql.body.errors).toBeUndefined();
    expect(byGraphql.body.data.createInstance).toMatchObject({ qrCode: null, userErrors: [], instance: { integration: 'CHAT-KEYED' } });
    await eventually(() => v1Detail(byGraphql.body.data.createInstance.instance.id), (d) => d.status === 'connected' && d.phoneNumber === third.phone, 10_000);
  });

  it('refuses a bad value with 400 naming the field, the field missing, or given to another engine; nothing is stored', async () => {
    const { api } = suite;
    const before = await count();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ integration: 'CHAT-KEYED', keyed: { account: 'abc', token: 'short' } }, 'keyed.account: must be 4 to 12 digits; keyed.token: must be at least 8 characters'],
      [{ integration: 'CHAT-KEYED', keyed: 'a token' }, 'keyed:'],
      [{ integration: 'CHAT-KEYED' }, 'keyed: is required for CHAT-KEYED: {account, token}'],
      [{ integration: 'CHAT-SANDBOX', keyed: { account: '12345', token: 'long enough' } }, 'keyed: is only for an instance that connects with API credentials (integration CHAT-SANDBOX pairs by QR code)'],
      // Another engine's field, valid by its own schema (CHAT-CLOUD is known, though not offered here).
      [
        { integration: 'CHAT-KEYED', keyed: { account: '12345', token: 'long enough' }, cloud: { phoneNumberId: '123', accessToken: 't', appSecret: 's' } },
        'cloud: is only for CHAT-CLOUD instances (integration CHAT-KEYED, which takes keyed)',
      ],
    ];
    for (const [body, message] of refusals) {
      const v1 = await api.post('/v1/chat/instances', { key: key(), body: { name: 'refused keyed', ...body } });
      expect(v1.status, JSON.stringify(body)).toBe(400);
      expect(v1.body.error).toMatchObject({ code: 'invalid_request' });
      expect(v1.body.error.message).toContain(message);
      const session = await api.post('/chat/instances', { cookie: cookie(), body: { name: 'refused keyed', ...body } });
      expect(session.status, JSON.stringify(body)).toBe(400);
      expect(session.body.error.message).toContain(message);
    }
    const byGraphql = await api.graphql(
      'mutation($input: CreateInstanceInput!) { createInstance(input: $input) { instance { id } userErrors { field message } } }',
      { input: { name: 'refused keyed', integration: 'CHAT-KEYED', keyed: { account: 'abc', token: 'long enough' } } },
      { key: key() },
    );
    expect(byGraphql.body.data.createInstance).toEqual({ instance: null, userErrors: [{ field: ['keyed', 'account'], message: 'must be 4 to 12 digits' }] });
    expect(await count()).toBe(before);
  });

  it('replaces the token by PUT with the replace schema: the engine checks the instance again with the new value', async () => {
    const { api } = suite;
    const { account, token, phone } = await openAccount();
    const created = await api.post('/v1/chat/instances', { key: key(), body: { name: `keyed put ${account}`, integration: 'CHAT-KEYED', keyed: { account, token } } });
    const id = created.body.data.id as string;
    await eventually(() => v1Detail(id), (d) => d.status === 'connected', 10_000);

    // The network issues a new token: the old one given again is refused, the new one links.
    const rotated = `${token}-rotated`;
    expect((await api.post('/keyed/accounts', { body: { account, token: rotated, phone } })).status).toBe(200);
    expect((await api.put(`/v1/chat/instances/${id}`, { key: key(), body: { keyed: { token } } })).status).toBe(200);
    // v1 shows a refused link as `error` (as CHAT-CLOUD's refused token).
    const refused = await eventually(() => v1Detail(id), (d) => d.status === 'error', 10_000);
    expect(refused.lastDisconnect).toMatchObject({ reason: 'credentials_rejected' });
    expect((await api.put(`/v1/chat/instances/${id}`, { key: key(), body: { keyed: { token: rotated } } })).status).toBe(200);
    await eventually(() => v1Detail(id), (d) => d.status === 'connected' && d.phoneNumber === phone, 10_000);

    const bad = await api.put(`/v1/chat/instances/${id}`, { key: key(), body: { keyed: { token: 'short' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('keyed.token: must be at least 8 characters');
    const sandbox = await api.post('/v1/chat/instances', { key: key(), body: { name: `sandbox ${account}`, integration: 'CHAT-SANDBOX' } });
    const onSandbox = await api.put(`/v1/chat/instances/${sandbox.body.data.id}`, { key: key(), body: { keyed: { token: rotated } } });
    expect(onSandbox.status).toBe(400);
    expect(onSandbox.body.error.message).toBe('keyed: is only for an instance that connects with API credentials (this one runs on CHAT-SANDBOX)');
  }, 60_000);

  it("is described by the gateway's OpenAPI document: the instance bodies have its field, from its schemas", async () => {
    const document = (await suite.api.get('/openapi.json')).body;
    const body = (path: string, method: string) => document.paths[path][method].requestBody.content['application/json'].schema.properties;
    for (const path of ['/v1/chat/instances', '/chat/instances']) {
      expect(body(path, 'post').keyed.anyOf[0]).toMatchObject({ type: 'object', required: ['account', 'token'], properties: { account: { pattern: '^\\d{4,12}$' } } });
      expect(body(path, 'post').cloud).toBeDefined();
      expect(body(path, 'post').integration.enum).toContain('CHAT-KEYED');
    }
    for (const path of ['/v1/chat/instances/{instanceId}', '/chat/instances/{instanceId}']) {
      expect(body(path, 'put').keyed.anyOf[0]).toMatchObject({ type: 'object', required: ['token'] });
    }
  });
});
