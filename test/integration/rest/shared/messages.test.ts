import { beforeAll, describe, expect, it } from 'vitest';
import { insertInstance } from '../../../factories/instances.js';
import { createTenant } from '../../../factories/tenants.js';
import { failure } from '../../../helpers/http.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';
import { MODES } from '../../../kit/modes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(MODES)('messages — $name', (mode) => {
  const suite = sharedGatewaySuite(mode, { tenants: ['pro', 'pro'] });
  let instanceId: string;

  beforeAll(async () => {
    instanceId = (await insertInstance(suite.gw.gateway, suite.tenant.tenantId)).id;
    await insertInstance(suite.gw.gateway, suite.other.tenantId);
  });

  const send = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    suite.api.post('/v1/messages/send', { key, body, headers });

  it('sends with a production key: exactly {id, status, timestamp, mode}', async () => {
    const response = await send(suite.tenant.liveKey, { to: '5511987654321', text: 'Hello' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { id: expect.stringMatching(UUID), status: 'queued', timestamp: expect.stringMatching(ISO_MS), mode: 'production' },
    });
    const stored = await suite.api.get(`/v1/messages/status/${response.body.data.id}`, { key: suite.tenant.liveKey });
    expect(stored.body.data).toMatchObject({ text: 'Hello', to: '5511987654321', direction: 'out', instanceId, mode: 'production' });
  });

  it('prefixes a test key\'s text with [TEST] and reports mode test', async () => {
    const response = await send(suite.tenant.testKey, { to: '5511987654321', text: 'Hello' });
    expect(response.body.data.mode).toBe('test');
    const stored = await suite.api.get(`/v1/messages/status/${response.body.data.id}`, { key: suite.tenant.testKey });
    expect(stored.body.data.text).toBe('[TEST] Hello');
    expect(stored.body.data.mode).toBe('test');
  });

  it('accepts the key in X-API-Key on the messages endpoints', async () => {
    const response = await suite.api.post('/v1/messages/send', {
      headers: { 'x-api-key': suite.tenant.liveKey },
      body: { to: '5511987654321', text: 'via header' },
    });
    expect(response.status).toBe(200);
    expect((await suite.api.get('/v1/messages/list', { headers: { 'x-api-key': suite.tenant.liveKey } })).status).toBe(200);
  });

  it.each([
    ['missing to', { text: 'hi' }, 'to: is required'],
    ['to with a plus', { to: '+5511987654321', text: 'hi' }, 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses): write "+5511987654321" as "5511987654321"'],
    ['to with spaces', { to: '55 11 98765 4321', text: 'hi' }, 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses): write "55 11 98765 4321" as "5511987654321"'],
    ['to with dashes', { to: '55-11-987654321', text: 'hi' }, 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses): write "55-11-987654321" as "5511987654321"'],
    ['to with parentheses', { to: '55(11)987654321', text: 'hi' }, 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses), e.g. 5511999990001'],
    ['to too short', { to: '123456', text: 'hi' }, 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses), e.g. 5511999990001'],
    ['to too long', { to: '1234567890123456', text: 'hi' }, 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses), e.g. 5511999990001'],
    ['to with a leading zero', { to: '05511987654321', text: 'hi' }, 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses), e.g. 5511999990001'],
    ['to as a number', { to: 5511987654321, text: 'hi' }, 'to: must be a string, not a number'],
    ['missing text', { to: '5511987654321' }, 'text: is required'],
    ['empty text', { to: '5511987654321', text: '' }, 'text: must not be empty'],
    ['text over 4096 characters', { to: '5511987654321', text: 'x'.repeat(4097) }, 'text: must be at most 4096 characters'],
    ['text as an object', { to: '5511987654321', text: { body: 'hi' } }, 'text: must be a string, not an object'],
    ['both fields missing', {}, 'to: is required; text: is required'],
    ['a JSON string body', 'hello', 'The request body must be a JSON object, not a string.'],
    ['a JSON array body', [{ to: '5511987654321', text: 'hi' }], 'The request body must be a JSON object, not an array.'],
  ])('refuses %s with 400 invalid_request and an exact message', async (_label, body, message) => {
    const response = await send(suite.tenant.liveKey, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: { code: 'invalid_request', message } });
  });

  it('accepts text of exactly 4096 characters', async () => {
    expect((await send(suite.tenant.liveKey, { to: '5511987654321', text: 'x'.repeat(4096) })).status).toBe(200);
  });

  it('refuses a send without a key (401 unauthorized) and with a session cookie (401)', async () => {
    const none = await suite.api.post('/v1/messages/send', { body: { to: '5511987654321', text: 'hi' } });
    expect(none.status).toBe(401);
    expect(none.body).toEqual(failure('unauthorized'));
    const cookie = await suite.api.post('/v1/messages/send', { cookie: suite.tenant.cookie, body: { to: '5511987654321', text: 'hi' } });
    expect(cookie.status).toBe(401);
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for the same key and body, and sends nothing new', async () => {
      const body = { to: '5511900000001', text: 'once' };
      const first = await send(suite.tenant.liveKey, body, { 'idempotency-key': 'order-1' });
      const second = await send(suite.tenant.liveKey, { text: 'once', to: '5511900000001' }, { 'idempotency-key': 'order-1' });
      expect(second.status).toBe(200);
      // The same bytes, field order included.
      expect(second.text).toBe(first.text);
      const third = await send(suite.tenant.liveKey, body, { 'idempotency-key': 'order-1' });
      expect(third.text).toBe(first.text);
      const sent = await suite.gw.gateway.infra.db.prisma.message.count({ where: { tenantId: suite.tenant.tenantId, to: '5511900000001' } });
      expect(sent).toBe(1);
    });

    it('answers 409 idempotency_conflict for the same key with another body', async () => {
      await send(suite.tenant.liveKey, { to: '5511900000002', text: 'a' }, { 'idempotency-key': 'order-2' });
      const conflict = await send(suite.tenant.liveKey, { to: '5511900000002', text: 'b' }, { 'idempotency-key': 'order-2' });
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual(failure('idempotency_conflict'));
    });

    it('makes exactly one message out of concurrent requests with one key', async () => {
      const body = { to: '5511900000003', text: 'race' };
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => send(suite.tenant.liveKey, body, { 'idempotency-key': 'order-3' })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
      const sent = await suite.gw.gateway.infra.db.prisma.message.count({ where: { tenantId: suite.tenant.tenantId, to: '5511900000003' } });
      expect(sent).toBe(1);
    });

    it('keeps keys apart per tenant', async () => {
      const mine = await send(suite.tenant.liveKey, { to: '5511900000004', text: 'x' }, { 'idempotency-key': 'shared' });
      const theirs = await send(suite.other.liveKey, { to: '5511900000004', text: 'x' }, { 'idempotency-key': 'shared' });
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    });

    it('refuses an Idempotency-Key over 255 characters', async () => {
      const response = await send(suite.tenant.liveKey, { to: '5511900000005', text: 'x' }, { 'idempotency-key': 'k'.repeat(256) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failure('invalid_request'));
    });
  });

  describe('routing', () => {
    it('answers 409 instance_unavailable when the tenant has no active instance', async () => {
      const lonely = await createTenant(suite.gw.gateway, suite.api);
      await insertInstance(suite.gw.gateway, lonely.tenantId, { active: false });
      const response = await send(lonely.liveKey, { to: '5511987654321', text: 'hi' });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(failure('instance_unavailable'));
      expect(await suite.gw.gateway.infra.db.prisma.message.count({ where: { tenantId: lonely.tenantId } })).toBe(0);
    });

    it('accepts and holds a message while active instances exist but none is connected', async () => {
      const waiting = await createTenant(suite.gw.gateway, suite.api);
      await insertInstance(suite.gw.gateway, waiting.tenantId, { state: 'disconnected' });
      const response = await send(waiting.liveKey, { to: '5511987654321', text: 'later' });
      expect(response.status).toBe(200);
      expect(response.body.data.status).toBe('queued');
      const stored = await suite.api.get(`/v1/messages/status/${response.body.data.id}`, { key: waiting.liveKey });
      expect(stored.body.data.instanceId).toBeNull();
    });

    it('spreads messages over connected instances, least recently used first', async () => {
      const busy = await createTenant(suite.gw.gateway, suite.api);
      const a = await insertInstance(suite.gw.gateway, busy.tenantId);
      const b = await insertInstance(suite.gw.gateway, busy.tenantId);
      const used: string[] = [];
      for (let i = 0; i < 4; i++) {
        const sent = await send(busy.liveKey, { to: '5511987654321', text: `m${i}` });
        used.push((await suite.api.get(`/v1/messages/status/${sent.body.data.id}`, { key: busy.liveKey })).body.data.instanceId);
      }
      expect(used.filter((id) => id === a.id)).toHaveLength(2);
      expect(used.filter((id) => id === b.id)).toHaveLength(2);
      expect(used[0]).not.toBe(used[1]);
    });
  });

  describe('list and status', () => {
    it('lists the tenant\'s messages newest first with pagination', async () => {
      const reader = await createTenant(suite.gw.gateway, suite.api);
      // Held while no instance is connected: the record shows the queued state.
      await insertInstance(suite.gw.gateway, reader.tenantId, { state: 'disconnected' });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await send(reader.liveKey, { to: '5511987654321', text: `n${i}` })).body.data.id);

      const page1 = await suite.api.get('/v1/messages/list?page=1&limit=2', { key: reader.liveKey });
      expect(page1.status).toBe(200);
      expect(page1.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
      expect(page1.body.data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
      expect(page1.body.data[0]).toEqual({
        id: ids[2],
        to: '5511987654321',
        from: null,
        direction: 'out',
        networkMessageId: null,
        type: 'text',
        text: 'n2',
        status: 'queued',
        mode: 'production',
        instanceId: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        timestamps: { queued: expect.stringMatching(ISO_MS), sent: null, delivered: null, read: null, failed: null },
        error: null,
      });
      const page2 = await suite.api.get('/v1/messages/list?page=2&limit=2', { key: reader.liveKey });
      expect(page2.body.data.map((m: { id: string }) => m.id)).toEqual([ids[0]]);
      const defaults = await suite.api.get('/v1/messages/list', { key: reader.liveKey });
      expect(defaults.body.pagination).toEqual({ page: 1, limit: 10, total: 3, pages: 1 });
    });

    it.each([
      ['page=0', 'page: must be at least 1'],
      ['page=-1', 'page: must be a whole number'],
      ['page=abc', 'page: must be a whole number'],
      ['page=1.5', 'page: must be a whole number'],
      ['limit=0', 'limit: must be at least 1'],
      ['limit=101', 'limit: must be at most 100'],
      ['limit=', 'limit: must be a whole number'],
      ['page=1&page=2', 'page: must be a string, not an array'],
      ['page=0&limit=abc', 'page: must be at least 1; limit: must be a whole number'],
    ])('refuses ?%s with 400 invalid_request and an exact message', async (query, message) => {
      const response = await suite.api.get(`/v1/messages/list?${query}`, { key: suite.tenant.liveKey });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, error: { code: 'invalid_request', message } });
    });

    it('answers 404 for an unknown message and 403 for another tenant\'s', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const missing = await suite.api.get(`/v1/messages/status/${id}`, { key: suite.tenant.liveKey });
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual(failure('not_found'));
      }
      const theirs = await send(suite.other.liveKey, { to: '5511987654321', text: 'private' });
      const forbidden = await suite.api.get(`/v1/messages/status/${theirs.body.data.id}`, { key: suite.tenant.liveKey });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual(failure('forbidden'));
      expect(forbidden.text).not.toContain('private');
    });

    it('refuses a revoked key on every messages endpoint', async () => {
      const created = await suite.api.post('/api-keys', { cookie: suite.tenant.cookie, body: { name: 'gone' } });
      await suite.api.delete(`/api-keys/${created.body.data.id}`, { cookie: suite.tenant.cookie });
      const key = created.body.data.key;
      for (const response of [
        await send(key, { to: '5511987654321', text: 'x' }),
        await suite.api.get('/v1/messages/list', { key }),
        await suite.api.get('/v1/messages/status/00000000-0000-4000-8000-000000000000', { key }),
      ]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual(failure('invalid_api_key'));
      }
    });
  });
});
