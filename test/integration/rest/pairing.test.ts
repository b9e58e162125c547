import { describe, expect, it } from 'vitest';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite } from '../../kit/suite.js';

const CODE = /^[1-9A-HJ-NP-TV-Z]{8}$/;
const REQUEST_PAIRING_CODE = `mutation($input: RequestPairingCodeInput!) {
  requestPairingCode(input: $input) { code expiresAt instance { id sessionStatus } userErrors { code field message } }
}`;

describe.each(MODES)('pairing on the engine\'s terms: codes, integrations, close reasons — $name', (mode) => {
  const suite = gatewaySuite(mode, { tenants: ['enterprise', 'pro'], env: { SANDBOX_RECONNECT_DELAY_MS: '200' } });

  it('links a session instance by pairing code: the phone enters it, the instance connects with that phone', async () => {
    const created = await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `by code ${Date.now()}` } });
    const id = created.body.data.instanceId;
    const phone = newPhone();
    const asked = await suite.api.post(`/chat/instances/${id}/pairing-code`, { cookie: suite.tenant.cookie, body: { phone } });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ success: true, data: { code: expect.stringMatching(CODE), expiresAt: expect.any(String) } });
    expect(Date.parse(asked.body.data.expiresAt)).toBeGreaterThan(Date.now());
    expect(asked.headers.get('cache-control')).toBe('no-store');

    // Typed as a person would: lower case, with the dash the phone shows.
    const typed = `${asked.body.data.code.slice(0, 4)}-${asked.body.data.code.slice(4)}`.toLowerCase();
    expect((await suite.api.post('/sandbox/pair', { body: { code: typed, phone: newPhone() } })).body).toEqual(failure('invalid_request'));
    const paired = await suite.api.post('/sandbox/pair', { body: { code: typed, phone } });
    expect(paired.status).toBe(200);
    expect(paired.body.data).toEqual({ instanceId: id });
    const detail = await eventually(() => suite.api.get(`/chat/instances/${id}`, { cookie: suite.tenant.cookie }), (r) => r.body.data.status === 'connected');
    expect(detail.body.data).toMatchObject({ phone, integration: 'CHAT-SANDBOX', lastDisconnect: null });
    expect(detail.body.data.qrCode).toBeUndefined();
    // Used once: the same code pairs nothing again, and a linked instance gets no new code.
    expect((await suite.api.post('/sandbox/pair', { body: { code: typed, phone } })).status).toBe(400);
    const again = await suite.api.post(`/chat/instances/${id}/pairing-code`, { cookie: suite.tenant.cookie, body: { phone } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(failure('instance_unavailable'));
  });

  it('gives a v1 instance a pairing code, and GraphQL one too; a new code replaces the last', async () => {
    const created = await suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body: { name: `v1 by code ${Date.now()}` } });
    const id = created.body.data.id;
    const phone = newPhone();
    const first = await suite.api.post(`/v1/chat/instances/${id}/pairing-code`, { key: suite.tenant.liveKey, body: { phone } });
    expect(first.status).toBe(200);
    const viaGraphQL = await suite.api.graphql(REQUEST_PAIRING_CODE, { input: { id, phone } }, { key: suite.tenant.liveKey });
    const payload = viaGraphQL.body.data.requestPairingCode;
    expect(payload.userErrors).toEqual([]);
    expect(payload.code).toMatch(CODE);
    expect(payload.code).not.toBe(first.body.data.code);
    expect(payload.instance.id).toBe(id);
    // Only the newest code works.
    expect((await suite.api.post('/sandbox/pair', { body: { code: first.body.data.code, phone } })).status).toBe(400);
    expect((await suite.api.post('/sandbox/pair', { body: { code: payload.code, phone } })).status).toBe(200);
    await eventually(() => suite.api.get(`/v1/chat/instances/${id}`, { key: suite.tenant.liveKey }), (r) => r.body.data.status === 'connected');
  });

  it('refuses bad pairing-code requests in the envelope: phone, another tenant, unknown instance, a cookie on v1', async () => {
    const created = await suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body: { name: `refusals ${Date.now()}` } });
    const id = created.body.data.id;
    for (const body of [{}, { phone: '+0123' }, { phone: 12345 }, { phone: '+55 (11) 99999 0000' }, { phone: '55  11 99999 0000' }, { phone: '+5511999990000-' }]) {
      const refused = await suite.api.post(`/v1/chat/instances/${id}/pairing-code`, { key: suite.tenant.liveKey, body });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(failure('invalid_request'));
      expect(refused.body.error.message).toMatch(/^phone: /);
    }
    expect((await suite.api.post(`/v1/chat/instances/${id}/pairing-code`, { key: suite.other.liveKey, body: { phone: newPhone() } })).body).toEqual(failure('forbidden'));
    expect((await suite.api.post('/v1/chat/instances/00000000-0000-4000-8000-000000000000/pairing-code', { key: suite.tenant.liveKey, body: { phone: newPhone() } })).status).toBe(404);
    expect((await suite.api.post(`/v1/chat/instances/${id}/pairing-code`, { body: { phone: newPhone() } })).status).toBe(401);
    expect((await suite.api.post(`/v1/chat/instances/${id}/pairing-code`, { key: suite.tenant.liveKey, raw: 'not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const graphql = await suite.api.graphql(REQUEST_PAIRING_CODE, { input: { id, phone: 'nope' } }, { key: suite.tenant.liveKey });
    expect(graphql.body.data.requestPairingCode.userErrors).toEqual([{ code: 'invalid_request', field: ['phone'], message: expect.any(String) }]);
    // The sandbox's own checks.
    for (const body of [{}, { code: 'ABCD2345' }, { code: 'ABCD2345', phone: 'x' }, { code: '', phone: newPhone() }]) {
      expect((await suite.api.post('/sandbox/pair', { body })).body).toEqual(failure('invalid_request'));
    }
  });

  it('creates on an offered integration and refuses another one, naming what is offered (REST, both variants, and GraphQL)', async () => {
    const v1 = await suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body: { name: `chosen ${Date.now()}`, integration: 'CHAT-SANDBOX' } });
    expect(v1.status).toBe(201);
    expect((await suite.api.get(`/v1/chat/instances/${v1.body.data.id}`, { key: suite.tenant.liveKey })).body.data).toMatchObject({ integration: 'CHAT-SANDBOX', lastDisconnect: null });
    for (const integration of ['CHAT-BAILEYS', 'chat-sandbox', 'CHAT-CLOUD']) {
      const refused = await suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body: { name: `nope ${integration}`, integration } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe('integration: must be one of CHAT-SANDBOX (the engines this gateway offers)');
    }
    const session = await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `wrong ${Date.now()}`, integration: 'CHAT-BAILEYS' } });
    expect(session.status).toBe(400);
    expect((await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `typed ${Date.now()}`, integration: 7 } })).body.error.message).toMatch(
      /^integration: /,
    );
    const graphql = await suite.api.graphql(
      'mutation($input: CreateInstanceInput!) { createInstance(input: $input) { instance { id integration } userErrors { code field message } } }',
      { input: { name: `gql ${Date.now()}`, integration: 'CHAT-CLOUD' } },
      { key: suite.tenant.liveKey },
    );
    expect(graphql.body.data.createInstance.userErrors).toEqual([
      { code: 'invalid_request', field: ['integration'], message: 'must be one of CHAT-SANDBOX (the engines this gateway offers)' },
    ]);
    expect((await suite.api.graphql('{ integrations { integration } }', {}, { key: suite.tenant.liveKey })).body.data).toEqual({ integrations: [{ integration: 'CHAT-SANDBOX' }] });
  });

  it('carries the reason of every close: in connection.update, the detail answers and GraphQL', async () => {
    const created = await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `reasons ${Date.now()}` } });
    const id = created.body.data.instanceId;
    const phone = newPhone();
    const code = (await suite.api.post(`/chat/instances/${id}/pairing-code`, { cookie: suite.tenant.cookie, body: { phone } })).body.data.code;
    await suite.api.post('/sandbox/pair', { body: { code, phone } });
    await eventually(() => suite.api.get(`/chat/instances/${id}`, { cookie: suite.tenant.cookie }), (r) => r.body.data.status === 'connected');
    expect((await suite.api.post(`/sandbox/instances/${id}/drop`)).status).toBe(200);
    const back = await eventually(
      () => suite.api.get(`/chat/instances/${id}`, { cookie: suite.tenant.cookie }),
      (r) => r.body.data.status === 'connected' && r.body.data.lastDisconnect !== null,
    );
    expect(back.body.data.lastDisconnect).toEqual({ reason: 'connection_lost', at: expect.any(String) });
    expect((await suite.api.post(`/sandbox/instances/${id}/ban`)).status).toBe(200);
    const banned = await suite.api.get(`/v1/chat/instances/${id}`, { key: suite.tenant.liveKey });
    expect(banned.body.data).toMatchObject({ status: 'error', integration: 'CHAT-SANDBOX', lastDisconnect: { reason: 'banned' } });
    const gql = await suite.api.graphql(`{ instance(id: "${id}") { sessionStatus lastDisconnect { reason at } } }`, {}, { key: suite.tenant.liveKey });
    expect(gql.body.data.instance).toEqual({ sessionStatus: 'banned', lastDisconnect: { reason: 'banned', at: expect.any(String) } });
    // In commit order (seq): on PostgreSQL createdAt is when a transaction began, and a transition that
    // waited for the one before it on the instance's row can carry an earlier time than it.
    const events = await suite.gw.gateway.infra.db.prisma.outboxEvent.findMany({ where: { instanceId: id, event: 'connection.update' }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => (e.data as { status: string; reason: string | null }).reason)).toEqual([null, null, null, 'connection_lost', null, null, 'banned']);
  });

  it('stores the network\'s id of every sent message, and matches its receipts by it', async () => {
    const created = await suite.api.post('/chat/instances', { cookie: suite.other.cookie, body: { name: `ids ${Date.now()}` } });
    const id = created.body.data.instanceId;
    const phone = newPhone();
    const code = (await suite.api.post(`/chat/instances/${id}/pairing-code`, { cookie: suite.other.cookie, body: { phone } })).body.data.code;
    await suite.api.post('/sandbox/pair', { body: { code, phone } });
    await eventually(() => suite.api.get(`/chat/instances/${id}`, { cookie: suite.other.cookie }), (r) => r.body.data.status === 'connected');
    const to = newPhone().slice(1);
    const sent = await suite.api.post(`/chat/instances/${id}/send-text`, { cookie: suite.other.cookie, body: { to, message: 'tracked' } });
    await eventually(() => phoneInbox(suite.api, to), (r) => r.body.data.length === 1);
    await suite.api.post(`/sandbox/phones/${to}/read`, { body: { messageId: sent.body.data.id } });
    const status = await eventually(() => suite.api.get(`/v1/messages/status/${sent.body.data.id}`, { key: suite.other.liveKey }), (r) => r.body.data.status === 'read');
    // The sandbox network knows a message by the gateway's own id.
    expect(status.body.data.networkMessageId).toBe(sent.body.data.id);
  });
});
