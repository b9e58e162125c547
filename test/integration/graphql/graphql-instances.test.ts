import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../../src/infra/qr-decode.js';
import { insertInstance } from '../../factories/instances.js';
import { eventually, newPhone } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import {
  CreateInstance,
  DeleteInstance,
  DisconnectInstance,
  GetInstance,
  ListInstances,
  ListMessages,
  RedeliverWebhook,
  RegenerateQrCode,
  RequestQrCode,
  RotateWebhookSecret,
  SendMedia,
  SendText,
  SetWebhook,
  TestWebhook,
  SetInstanceActive,
  UpdateInstance,
  WebhookDeliveries,
} from '../../graphql/operations.js';
import type { CreateInstanceInput } from '../../graphql/generated/graphql.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { type Client, client, codesOf } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';

describe.each(MODES)('GraphQL instances and webhooks — $name', (mode) => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    gw = await startTestGateway(mode, {
      env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS: '0,1', WEBHOOK_TIMEOUT_MS: '500' },
      // The masking test makes a resolver really fail; the failure is logged, and masked in the answer.
      expectedErrors: [/amount of data is too big to be stored in a QR Code/],
    });
    api = client(gw.url);
    [tenant, other] = await Promise.all([createTenant(gw.gateway, api, 'enterprise'), createTenant(gw.gateway, api)]);
  });
  afterAll(() => gw?.close());

  const create = async (input: CreateInstanceInput, auth: { key?: string; cookie?: string } = { key: tenant.liveKey }) =>
    (await api.operation(CreateInstance, { input }, auth)).body.data!.createInstance;

  it('runs a v1 instance through its whole life on the same functions as REST', async () => {
    const created = await create({ name: 'gql v1', description: 'desk' });
    expect(created.userErrors).toEqual([]);
    const instance = created.instance!;
    expect(instance).toMatchObject({ name: 'gql v1', description: 'desk', variant: 'V1', status: 'initializing', sessionStatus: 'created', integration: 'CHAT-SANDBOX' });
    expect(instance.webhookEvents).toEqual(['MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'MESSAGES_DELETE', 'CONNECTION_UPDATE', 'QR_UPDATE']);
    expect(created.qrCode!.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(created.webhookSecret).toMatch(/^whsec_/);

    // The REST view of the same instance agrees.
    const rest = await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey });
    const read = (await api.operation(GetInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.instance!;
    expect(read).toMatchObject({
      id: rest.body.data.id,
      name: rest.body.data.name,
      status: rest.body.data.status,
      active: true,
      phoneNumber: null,
      statistics: rest.body.data.statistics,
    });
    expect(read.qrCode!.attemptId).toBe(created.qrCode!.attemptId);

    const updated = (await api.operation(UpdateInstance, { input: { id: instance.id, name: 'gql v1 renamed', description: null } }, { key: tenant.liveKey })).body.data!.updateInstance;
    expect(updated).toEqual({ instance: expect.objectContaining({ name: 'gql v1 renamed', description: null }), userErrors: [] });

    const setActive = async (active: boolean, key = tenant.liveKey) =>
      (await api.operation(SetInstanceActive, { input: { id: instance.id, active } }, { key })).body.data!.setInstanceActive;
    expect(await setActive(false)).toEqual({ instance: { id: instance.id, active: false }, userErrors: [] });
    // Idempotent: a retry leaves it as asked.
    expect(await setActive(false)).toEqual({ instance: { id: instance.id, active: false }, userErrors: [] });
    expect((await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey })).body.data.active).toBe(false);
    expect(await setActive(true)).toMatchObject({ instance: { active: true } });
    expect(await setActive(false, other.liveKey)).toEqual({ instance: null, userErrors: [{ code: 'forbidden', field: null, message: expect.any(String) }] });

    const qr = (await api.operation(RequestQrCode, { id: instance.id }, { key: tenant.liveKey })).body.data!.requestQrCode;
    expect(qr.qrCode!.attemptId).toBe(created.qrCode!.attemptId);
    // The payload carries the instance as it is now: a cache sees qr_code without another query.
    expect(qr.instance).toEqual({ id: instance.id, status: 'qr_code' });

    const phone = newPhone();
    expect((await api.post('/sandbox/scan', { body: { code: decodeQr(qr.qrCode!.qrCode), phone } })).status).toBe(200);
    await eventually(
      async () => (await api.operation(GetInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.instance,
      (r) => r?.status === 'connected' && r.phoneNumber === phone,
    );
    const connectedQr = (await api.operation(RequestQrCode, { id: instance.id }, { key: tenant.liveKey })).body.data!.requestQrCode;
    expect(connectedQr).toMatchObject({ qrCode: null, userErrors: [{ code: 'instance_unavailable' }] });

    const textInput = { instanceId: instance.id, to: '5511988887777', message: 'hello from graphql', idempotencyKey: 'gql-text-1' };
    const sent = (await api.operation(SendText, { input: textInput }, { key: tenant.liveKey })).body.data!.sendText;
    expect(sent).toEqual({ message: { id: expect.any(String), status: 'queued', createdAt: expect.any(String) }, userErrors: [] });
    const replay = (await api.operation(SendText, { input: textInput }, { key: tenant.liveKey })).body.data!.sendText;
    expect(replay.message!.id).toBe(sent.message!.id);
    await eventually(() => api.get(`/v1/messages/status/${sent.message!.id}`, { key: tenant.liveKey }), (r) => r.body.data?.status === 'delivered' || r.body.data?.status === 'read');

    const listed = (await api.operation(ListMessages, { first: 5, filter: { instanceId: instance.id } }, { key: tenant.liveKey })).body.data!.messages;
    expect(listed.edges.map((e) => e.node)).toEqual([expect.objectContaining({ id: sent.message!.id, text: 'hello from graphql', instanceId: instance.id })]);
    expect(listed.totalCount).toBe(1);

    const disconnected = (await api.operation(DisconnectInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.disconnectInstance;
    expect(disconnected).toEqual({ instance: { id: instance.id, status: 'disconnected', sessionStatus: 'disconnected' }, userErrors: [] });

    const deleted = (await api.operation(DeleteInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.deleteInstance;
    expect(deleted).toEqual({ deletedInstanceId: instance.id, userErrors: [] });
    expect((await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey })).status).toBe(404);
  });

  it('creates a session instance with a cookie, issues its first QR after the answer, and regenerates it', async () => {
    const created = await create({ name: 'gql session', variant: 'SESSION' }, { cookie: tenant.cookie });
    expect(created.instance).toMatchObject({ variant: 'SESSION', sessionStatus: 'created' });
    expect(created.qrCode).toBeNull();
    const id = created.instance!.id;
    const shown = (await eventually(
      async () => (await api.operation(GetInstance, { id }, { cookie: tenant.cookie })).body.data!.instance,
      (r) => r?.qrCode != null,
    ))!;
    expect(shown.sessionStatus).toBe('qr');
    const regenerated = (await api.operation(RegenerateQrCode, { id }, { cookie: tenant.cookie })).body.data!.regenerateQrCode;
    expect(regenerated.qrCode!.attemptId).not.toBe(shown.qrCode!.attemptId);
    expect(regenerated.instance).toEqual({ id, sessionStatus: 'qr' });
    // REST shows the same code.
    const rest = await api.get(`/chat/instances/${id}`, { cookie: tenant.cookie });
    expect(rest.body.data.qrCode.attemptId).toBe(regenerated.qrCode!.attemptId);
  });

  it('pages through instances with cursors, counts and filters them, and reports the page maximum', async () => {
    const mine = await Promise.all([1, 2, 3].map((n) => insertInstance(gw.gateway, other.tenantId, { name: `paged ${n}` })));
    const first = (await api.operation(ListInstances, { first: 2 }, { key: other.liveKey })).body.data!.instances;
    expect(first.edges).toHaveLength(2);
    expect(first.totalCount).toBe(3);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (await api.operation(ListInstances, { first: 10, after: first.pageInfo.endCursor }, { key: other.liveKey })).body.data!.instances;
    const seen = [...first.edges, ...rest.edges].map((e) => e.node.id);
    expect(new Set(seen)).toEqual(new Set(mine.map((i) => i.id)));
    expect(rest.pageInfo.hasNextPage).toBe(false);
    // Another tenant never sees them.
    const theirs = (await api.operation(ListInstances, { first: 100 }, { key: tenant.liveKey })).body.data!.instances;
    expect(theirs.edges.map((e) => e.node.id)).not.toContain(mine[0]!.id);

    await api.operation(SetInstanceActive, { input: { id: mine[1]!.id, active: false } }, { key: other.liveKey });
    const inactive = (await api.operation(ListInstances, { first: 10, filter: { active: false } }, { key: other.liveKey })).body.data!.instances;
    expect(inactive).toMatchObject({ totalCount: 1, edges: [{ node: { id: mine[1]!.id, active: false } }] });
    const connectedActive = (await api.operation(ListInstances, { first: 10, filter: { status: 'connected', active: true } }, { key: other.liveKey })).body.data!.instances;
    expect(connectedActive.totalCount).toBe(2);
    const initializing = (await api.operation(ListInstances, { first: 10, filter: { status: 'initializing' } }, { key: other.liveKey })).body.data!.instances;
    expect(initializing).toMatchObject({ totalCount: 0, edges: [] });

    // A page size over the maximum is refused, not cut, whether it comes in a variable or in the document.
    const oversized = await api.operation(ListInstances, { first: 1000 }, { key: other.liveKey });
    expect(oversized.body.data).toBeNull();
    expect(oversized.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/first: must be at most 100/), extensions: { code: 'invalid_request' } })]);
    const literal = await api.graphql('{ instances(first: 1000) { edges { cursor node { id name } } } }', {}, { key: other.liveKey });
    expect(literal.status).toBe(200);
    expect(literal.body.errors?.[0]?.message).toMatch(/first: must be at most 100/);
    expect(codesOf(literal.body)).toEqual(['invalid_request']);
  });

  it('lists deliveries, tests the webhook and redelivers through GraphQL', async () => {
    const receiver = await startReceiver();
    try {
      const created = await create({ name: 'gql hooked' });
      const id = created.instance!.id;
      const set = (await api.operation(SetWebhook, { input: { instanceId: id, url: `${receiver.url}/gql`, events: ['CONNECTION_UPDATE'] } }, { key: tenant.liveKey })).body.data!.setWebhook;
      expect(set).toEqual({ instance: { id, webhookUrl: `${receiver.url}/gql`, webhookEvents: ['CONNECTION_UPDATE'] }, userErrors: [] });

      const tested = (await api.operation(TestWebhook, { instanceId: id }, { key: tenant.liveKey })).body.data!.testWebhook;
      expect(tested).toEqual({ status: 'sent', error: null, response: { statusCode: 200, body: expect.any(String) }, userErrors: [] });
      expect(receiver.of('webhook.test')).toHaveLength(1);

      await api.operation(RequestQrCode, { id }, { key: tenant.liveKey }); // connection.update qr_code
      const delivered = (await eventually(
        async () => (await api.operation(WebhookDeliveries, { id }, { key: tenant.liveKey })).body.data!.instance,
        (r) => r?.webhookDeliveries.edges.some((e) => e.node.status === 'delivered') ?? false,
      ))!;
      expect(delivered.webhookDeliveries.totalCount).toBe(delivered.webhookDeliveries.edges.length);
      const delivery = delivered.webhookDeliveries.edges[0]!.node;
      expect(delivery).toMatchObject({ event: 'CONNECTION_UPDATE', url: `${receiver.url}/gql`, attemptCount: 1, attempts: [{ number: 1, statusCode: 200, error: null }] });

      const again = (await api.operation(RedeliverWebhook, { instanceId: id, deliveryId: delivery.id }, { key: tenant.liveKey })).body.data!.redeliverWebhook;
      expect(again.userErrors).toEqual([]);
      expect(again.delivery).toMatchObject({ event: 'CONNECTION_UPDATE', payload: delivery.payload });
      expect(again.delivery!.id).not.toBe(delivery.id);
      await eventually(async () => receiver.of('connection.update').length, (n) => n === 2);
      expect(receiver.of('connection.update')[1]!.body).toBe(delivery.payload);
    } finally {
      await receiver.close();
    }
  });

  describe('userErrors with field paths, and coded errors', () => {
    let mine: string;
    let theirs: string;
    beforeAll(async () => {
      mine = (await insertInstance(gw.gateway, tenant.tenantId, { name: 'errors mine' })).id;
      theirs = (await insertInstance(gw.gateway, other.tenantId, { name: 'errors theirs' })).id;
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    type UserErrors = { userErrors: Array<{ code: string; field?: string[] | null; message: string }> };
    const refusal = (code: string, field: string[] | null = null) => ({ code, field, message: expect.any(String) });
    const errorsOf = (payload: UserErrors) => payload.userErrors;

    it('createInstance: every bad field at once, duplicate name, plan limit, no caller', async () => {
      const all = await create({ name: 'ab', description: 'x'.repeat(501), webhookUrl: 'ftp://example.com/hook', webhookEvents: ['GROUPS_UPDATE'] });
      expect(all.instance).toBeNull();
      expect(errorsOf(all)).toEqual(
        expect.arrayContaining([refusal('invalid_request', ['name']), refusal('invalid_request', ['description']), refusal('invalid_request', ['webhookUrl']), refusal('invalid_request', ['webhookEvents'])]),
      );
      expect(errorsOf(all)).toHaveLength(4);
      expect(errorsOf(await create({ name: 'errors mine' }))).toEqual([refusal('instance_name_taken')]);
      const starter = await createTenant(gw.gateway, api, 'starter');
      expect(errorsOf(await create({ name: 'first one' }, { key: starter.liveKey }))).toEqual([]);
      expect(errorsOf(await create({ name: 'second one' }, { key: starter.liveKey }))).toEqual([refusal('instance_limit_reached')]);
      const nobody = await api.operation(CreateInstance, { input: { name: 'nobody' } }, {});
      expect(nobody.body.data).toBeNull();
      expect(codesOf(nobody.body)).toEqual(['unauthorized']);
    });

    it('instance reads and changes: unknown, another tenant\'s, bad input', async () => {
      const key = { key: tenant.liveKey };
      for (const id of [unknown, 'not-a-uuid', theirs]) {
        const read = await api.operation(GetInstance, { id }, key);
        expect(read.body.data).toEqual({ instance: null });
        expect(read.body.errors).toEqual([expect.objectContaining({ path: ['instance'], extensions: { code: 'not_found' } })]);
      }
      expect(errorsOf((await api.operation(UpdateInstance, { input: { id: theirs, name: 'mine now' } }, key)).body.data!.updateInstance)).toEqual([refusal('forbidden')]);
      expect(errorsOf((await api.operation(UpdateInstance, { input: { id: mine, name: 'x', webhookUrl: 'nope' } }, key)).body.data!.updateInstance)).toEqual([
        refusal('invalid_request', ['name']),
        refusal('invalid_request', ['webhookUrl']),
      ]);
      expect(errorsOf((await api.operation(DeleteInstance, { id: theirs }, key)).body.data!.deleteInstance)).toEqual([refusal('forbidden')]);
      expect((await api.operation(DeleteInstance, { id: unknown }, key)).body.data!.deleteInstance).toEqual({ deletedInstanceId: null, userErrors: [refusal('not_found')] });
      expect(errorsOf((await api.operation(SetInstanceActive, { input: { id: theirs, active: false } }, key)).body.data!.setInstanceActive)).toEqual([refusal('forbidden')]);
      expect(errorsOf((await api.operation(SetInstanceActive, { input: { id: unknown, active: true } }, key)).body.data!.setInstanceActive)).toEqual([refusal('not_found')]);
      expect(errorsOf((await api.operation(RequestQrCode, { id: theirs }, key)).body.data!.requestQrCode)).toEqual([refusal('forbidden')]);
      expect(errorsOf((await api.operation(RegenerateQrCode, { id: unknown }, key)).body.data!.regenerateQrCode)).toEqual([refusal('not_found')]);
      expect(errorsOf((await api.operation(DisconnectInstance, { id: theirs }, key)).body.data!.disconnectInstance)).toEqual([refusal('forbidden')]);
      // Still there, unchanged.
      expect((await api.get(`/v1/chat/instances/${theirs}`, { key: other.liveKey })).body.data.name).toBe('errors theirs');
    });

    it('webhooks: refused URLs and events, no URL to test, unknown delivery', async () => {
      const key = { key: tenant.liveKey };
      const set = async (url: string, events?: Array<'GROUPS_UPDATE' | 'QR_UPDATE'>) =>
        errorsOf((await api.operation(SetWebhook, { input: { instanceId: mine, url, events } }, key)).body.data!.setWebhook);
      expect(await set('ftp://example.com/hook')).toEqual([refusal('invalid_request', ['url'])]);
      expect(await set('not a url', ['GROUPS_UPDATE'])).toEqual([refusal('invalid_request', ['events']), refusal('invalid_request', ['url'])]);
      expect(await set('https://example.com/hook', ['GROUPS_UPDATE'])).toEqual([refusal('invalid_request', ['events'])]);
      const untested = (await api.operation(TestWebhook, { instanceId: mine }, key)).body.data!.testWebhook;
      expect(untested).toEqual({ status: null, error: null, response: null, userErrors: [{ code: 'invalid_request', field: null, message: expect.stringMatching(/webhook URL/) }] });
      expect(errorsOf((await api.operation(TestWebhook, { instanceId: theirs }, key)).body.data!.testWebhook)).toEqual([refusal('forbidden')]);
      expect(errorsOf((await api.operation(RedeliverWebhook, { instanceId: mine, deliveryId: unknown }, key)).body.data!.redeliverWebhook)).toEqual([refusal('not_found')]);
      expect(errorsOf((await api.operation(RedeliverWebhook, { instanceId: theirs, deliveryId: unknown }, key)).body.data!.redeliverWebhook)).toEqual([refusal('forbidden')]);
      expect((await api.operation(RotateWebhookSecret, { instanceId: theirs }, key)).body.data!.rotateWebhookSecret).toEqual({ webhookSecret: null, userErrors: [refusal('forbidden')] });
      expect(errorsOf((await api.operation(RotateWebhookSecret, { instanceId: unknown }, key)).body.data!.rotateWebhookSecret)).toEqual([refusal('not_found')]);
    });

    it('instance sends: bad number, bad media, inactive, another tenant\'s instance, no caller', async () => {
      const key = { key: tenant.liveKey };
      const text = async (input: { instanceId: string; to: string; message: string }, auth: { key?: string } = key) =>
        (await api.operation(SendText, { input }, auth)).body;
      expect(errorsOf((await text({ instanceId: mine, to: '12', message: '' })).data!.sendText)).toEqual([refusal('invalid_request', ['to']), refusal('invalid_request', ['message'])]);
      expect(errorsOf((await text({ instanceId: theirs, to: '5511988887777', message: 'x' })).data!.sendText)).toEqual([refusal('forbidden')]);
      const media = { instanceId: mine, to: '5511988887777', mediaUrl: 'ftp://example.com/cat.png', mediaType: 'image' as const, caption: 'c'.repeat(1025) };
      expect(errorsOf((await api.operation(SendMedia, { input: media }, key)).body.data!.sendMedia)).toEqual([
        refusal('invalid_request', ['caption']),
        refusal('invalid_request', ['mediaUrl']),
      ]);
      await api.operation(SetInstanceActive, { input: { id: mine, active: false } }, key);
      expect(errorsOf((await text({ instanceId: mine, to: '5511988887777', message: 'x' })).data!.sendText)).toEqual([refusal('instance_inactive')]);
      await api.operation(SetInstanceActive, { input: { id: mine, active: true } }, key);
      expect(codesOf(await text({ instanceId: mine, to: '5511988887777', message: 'x' }, {}))).toEqual(['unauthorized']);
    });

    it('masks unexpected failures as server_error: no internal detail leaves, the rest of the answer stands', async () => {
      // A stored code too long for any QR image makes rendering it fail inside the resolver.
      const broken = await insertInstance(gw.gateway, tenant.tenantId, { name: 'broken qr', state: 'created' });
      await gw.gateway.infra.db.prisma.qrCode.create({
        data: { instanceId: broken.id, attemptId: `broken-${broken.id}`, code: 'x'.repeat(5000), expiresAt: new Date(Date.now() + 60_000) },
      });
      const answer = await api.operation(GetInstance, { id: broken.id }, { key: tenant.liveKey });
      expect(answer.status).toBe(200);
      expect(answer.body.data!.instance).toMatchObject({ id: broken.id, name: 'broken qr', qrCode: null });
      expect(answer.body.errors).toEqual([expect.objectContaining({ message: 'Unexpected error.', path: ['instance', 'qrCode'], extensions: { code: 'server_error' } })]);
      expect(JSON.stringify(answer.body.errors)).not.toMatch(/too big|amount of data|stack/i);
    });

    it('answers a wrongly typed variable with a 4xx and invalid_request, not a 5xx', async () => {
      const wrong = await api.operation(SendMedia, { input: { instanceId: mine, to: '1', mediaUrl: 'x', mediaType: 'gif' as never } }, { key: tenant.liveKey });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors?.[0]?.message).toMatch(/mediaType|MediaType/);
      expect(codesOf(wrong.body)).toEqual(['invalid_request']);
    });
  });
});
