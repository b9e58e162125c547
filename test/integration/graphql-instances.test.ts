import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../src/infra/qr-decode.js';
import { insertInstance } from '../factories/instances.js';
import { eventually, newPhone } from '../factories/sandbox.js';
import { createTenant, type TestTenant } from '../factories/tenants.js';
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
  SendMedia,
  SendText,
  SetWebhook,
  TestWebhook,
  SetInstanceActive,
  UpdateInstance,
  WebhookDeliveries,
} from '../graphql/operations.js';
import type { CreateInstanceInput } from '../graphql/generated/graphql.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { type Client, client } from '../helpers/http.js';
import { MODES } from '../helpers/modes.js';
import { startReceiver } from '../helpers/receiver.js';

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
    if (created.__typename !== 'MutationCreateInstanceSuccess') throw new Error(JSON.stringify(created));
    const { instance, qrCode, webhookSecret } = created.data;
    expect(instance).toMatchObject({ name: 'gql v1', description: 'desk', variant: 'V1', status: 'initializing', sessionStatus: 'created', integration: 'CHAT-SANDBOX' });
    expect(instance.webhookEvents).toEqual(['messages.upsert', 'messages.update', 'messages.delete', 'connection.update', 'qr.update']);
    expect(qrCode!.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(webhookSecret).toMatch(/^whsec_/);

    // The REST view of the same instance agrees.
    const rest = await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey });
    const read = (await api.operation(GetInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.instance;
    if (read.__typename !== 'QueryInstanceSuccess') throw new Error(JSON.stringify(read));
    expect(read.data).toMatchObject({
      id: rest.body.data.id,
      name: rest.body.data.name,
      status: rest.body.data.status,
      active: true,
      phoneNumber: null,
      statistics: rest.body.data.statistics,
    });
    expect(read.data.qrCode!.attemptId).toBe(qrCode!.attemptId);

    const updated = (await api.operation(UpdateInstance, { id: instance.id, input: { name: 'gql v1 renamed', description: null } }, { key: tenant.liveKey })).body.data!.updateInstance;
    expect(updated).toEqual({ __typename: 'MutationUpdateInstanceSuccess', data: expect.objectContaining({ name: 'gql v1 renamed', description: null }) });

    const setActive = async (active: boolean) =>
      (await api.operation(SetInstanceActive, { input: { id: instance.id, active } }, { key: tenant.liveKey })).body.data!.setInstanceActive;
    expect(await setActive(false)).toEqual({ __typename: 'MutationSetInstanceActiveSuccess', data: { id: instance.id, active: false } });
    // Idempotent: a retry leaves it as asked.
    expect(await setActive(false)).toEqual({ __typename: 'MutationSetInstanceActiveSuccess', data: { id: instance.id, active: false } });
    expect((await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey })).body.data.active).toBe(false);
    expect(await setActive(true)).toMatchObject({ data: { active: true } });
    const foreign = (await api.operation(SetInstanceActive, { input: { id: instance.id, active: false } }, { key: other.liveKey })).body.data!.setInstanceActive;
    expect(foreign).toMatchObject({ __typename: 'DomainError', code: 'forbidden' });

    const qr = (await api.operation(RequestQrCode, { id: instance.id }, { key: tenant.liveKey })).body.data!.requestQrCode;
    if (qr.__typename !== 'MutationRequestQrCodeSuccess') throw new Error(JSON.stringify(qr));
    expect(qr.data.attemptId).toBe(qrCode!.attemptId);
    expect((await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey })).body.data.status).toBe('qr_code');

    const phone = newPhone();
    expect((await api.post('/sandbox/scan', { body: { code: decodeQr(qr.data.qrCode), phone } })).status).toBe(200);
    await eventually(
      async () => (await api.operation(GetInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.instance,
      (r) => r.__typename === 'QueryInstanceSuccess' && r.data.status === 'connected' && r.data.phoneNumber === phone,
    );
    const connectedQr = (await api.operation(RequestQrCode, { id: instance.id }, { key: tenant.liveKey })).body.data!.requestQrCode;
    expect(connectedQr).toMatchObject({ __typename: 'DomainError', code: 'instance_unavailable' });

    const sent = (await api.operation(SendText, { instanceId: instance.id, to: '5511988887777', message: 'hello from graphql', idempotencyKey: 'gql-text-1' }, { key: tenant.liveKey })).body.data!.sendText;
    if (sent.__typename !== 'MutationSendTextSuccess') throw new Error(JSON.stringify(sent));
    const replay = (await api.operation(SendText, { instanceId: instance.id, to: '5511988887777', message: 'hello from graphql', idempotencyKey: 'gql-text-1' }, { key: tenant.liveKey })).body.data!.sendText;
    expect(replay).toMatchObject({ data: { id: sent.data.id } });
    await eventually(() => api.get(`/v1/messages/status/${sent.data.id}`, { key: tenant.liveKey }), (r) => r.body.data?.status === 'delivered' || r.body.data?.status === 'read');

    const listed = (await api.operation(ListMessages, { first: 5 }, { key: tenant.liveKey })).body.data!.messages;
    if (listed.__typename !== 'QueryMessagesSuccess') throw new Error(JSON.stringify(listed));
    expect(listed.data.edges.map((e) => e.node)).toContainEqual(expect.objectContaining({ id: sent.data.id, text: 'hello from graphql', instanceId: instance.id }));

    const disconnected = (await api.operation(DisconnectInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.disconnectInstance;
    expect(disconnected).toEqual({ __typename: 'MutationDisconnectInstanceSuccess', data: { id: instance.id, status: 'disconnected', sessionStatus: 'disconnected' } });

    const deleted = (await api.operation(DeleteInstance, { id: instance.id }, { key: tenant.liveKey })).body.data!.deleteInstance;
    expect(deleted.__typename).toBe('MutationDeleteInstanceSuccess');
    expect((await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey })).status).toBe(404);
  });

  it('creates a session instance with a cookie, issues its first QR after the answer, and regenerates it', async () => {
    const created = await create({ name: 'gql session', variant: 'SESSION' }, { cookie: tenant.cookie });
    if (created.__typename !== 'MutationCreateInstanceSuccess') throw new Error(JSON.stringify(created));
    expect(created.data.instance).toMatchObject({ variant: 'SESSION', sessionStatus: 'created' });
    expect(created.data.qrCode).toBeNull();
    const id = created.data.instance.id;
    const shown = await eventually(
      async () => (await api.operation(GetInstance, { id }, { cookie: tenant.cookie })).body.data!.instance,
      (r) => r.__typename === 'QueryInstanceSuccess' && r.data.qrCode !== null,
    );
    if (shown.__typename !== 'QueryInstanceSuccess') throw new Error('unreachable');
    expect(shown.data.sessionStatus).toBe('qr');
    const regenerated = (await api.operation(RegenerateQrCode, { id }, { cookie: tenant.cookie })).body.data!.regenerateQrCode;
    if (regenerated.__typename !== 'MutationRegenerateQrCodeSuccess') throw new Error(JSON.stringify(regenerated));
    expect(regenerated.data.qrCode.attemptId).not.toBe(shown.data.qrCode!.attemptId);
    // REST shows the same code.
    const rest = await api.get(`/chat/instances/${id}`, { cookie: tenant.cookie });
    expect(rest.body.data.qrCode.attemptId).toBe(regenerated.data.qrCode.attemptId);
  });

  it('pages through instances with cursors', async () => {
    const mine = await Promise.all([1, 2, 3].map((n) => insertInstance(gw.gateway, other.tenantId, { name: `paged ${n}` })));
    const first = (await api.operation(ListInstances, { first: 2 }, { key: other.liveKey })).body.data!.instances;
    if (first.__typename !== 'QueryInstancesSuccess') throw new Error(JSON.stringify(first));
    expect(first.data.edges).toHaveLength(2);
    expect(first.data.pageInfo.hasNextPage).toBe(true);
    const rest = (await api.operation(ListInstances, { first: 10, after: first.data.pageInfo.endCursor }, { key: other.liveKey })).body.data!.instances;
    if (rest.__typename !== 'QueryInstancesSuccess') throw new Error(JSON.stringify(rest));
    const seen = [...first.data.edges, ...rest.data.edges].map((e) => e.node.id);
    expect(new Set(seen)).toEqual(new Set(mine.map((i) => i.id)));
    expect(rest.data.pageInfo.hasNextPage).toBe(false);
    // Another tenant never sees them.
    const theirs = (await api.operation(ListInstances, { first: 100 }, { key: tenant.liveKey })).body.data!.instances;
    if (theirs.__typename !== 'QueryInstancesSuccess') throw new Error(JSON.stringify(theirs));
    expect(theirs.data.edges.map((e) => e.node.id)).not.toContain(mine[0]!.id);
    // A page size over 100 in a variable is capped; written into the document it is refused by the cost limit.
    const capped = (await api.operation(ListInstances, { first: 1000 }, { key: other.liveKey })).body.data!.instances;
    if (capped.__typename !== 'QueryInstancesSuccess') throw new Error(JSON.stringify(capped));
    expect(new Set(capped.data.edges.map((e) => e.node.id))).toEqual(new Set(mine.map((i) => i.id)));
    const literal = await api.graphql('{ instances(first: 1000) { ... on QueryInstancesSuccess { data { edges { cursor node { id name } } } } } }', {}, { key: other.liveKey });
    expect(literal.status).toBe(200);
    expect(literal.body.errors?.[0]?.message).toMatch(/cost limit/i);
  });

  it('lists deliveries, tests the webhook and redelivers through GraphQL', async () => {
    const receiver = await startReceiver();
    try {
      const created = await create({ name: 'gql hooked' });
      if (created.__typename !== 'MutationCreateInstanceSuccess') throw new Error(JSON.stringify(created));
      const id = created.data.instance.id;
      const set = (await api.operation(SetWebhook, { instanceId: id, input: { url: `${receiver.url}/gql`, events: ['connection.update'] } }, { key: tenant.liveKey })).body.data!.setWebhook;
      expect(set).toEqual({ __typename: 'MutationSetWebhookSuccess', data: { id, webhookUrl: `${receiver.url}/gql`, webhookEvents: ['connection.update'] } });

      const tested = (await api.operation(TestWebhook, { instanceId: id }, { key: tenant.liveKey })).body.data!.testWebhook;
      expect(tested).toEqual({ __typename: 'MutationTestWebhookSuccess', data: { status: 'sent', error: null, response: { statusCode: 200, body: expect.any(String) } } });
      expect(receiver.of('webhook.test')).toHaveLength(1);

      await api.operation(RequestQrCode, { id }, { key: tenant.liveKey }); // connection.update qr_code
      const delivered = await eventually(
        async () => (await api.operation(WebhookDeliveries, { id }, { key: tenant.liveKey })).body.data!.instance,
        (r) => r.__typename === 'QueryInstanceSuccess' && r.data.webhookDeliveries.edges.some((e) => e.node.status === 'delivered'),
      );
      if (delivered.__typename !== 'QueryInstanceSuccess') throw new Error('unreachable');
      const delivery = delivered.data.webhookDeliveries.edges[0]!.node;
      expect(delivery).toMatchObject({ event: 'connection.update', url: `${receiver.url}/gql`, attemptCount: 1, attempts: [{ number: 1, statusCode: 200, error: null }] });

      const again = (await api.operation(RedeliverWebhook, { instanceId: id, deliveryId: delivery.id }, { key: tenant.liveKey })).body.data!.redeliverWebhook;
      if (again.__typename !== 'MutationRedeliverWebhookSuccess') throw new Error(JSON.stringify(again));
      expect(again.data).toMatchObject({ event: 'connection.update', payload: delivery.payload });
      expect(again.data.id).not.toBe(delivery.id);
      await eventually(async () => receiver.of('connection.update').length, (n) => n === 2);
      expect(receiver.of('connection.update')[1]!.body).toBe(delivery.payload);
    } finally {
      await receiver.close();
    }
  });

  describe('typed errors with the REST codes', () => {
    let mine: string;
    let theirs: string;
    beforeAll(async () => {
      mine = (await insertInstance(gw.gateway, tenant.tenantId, { name: 'errors mine' })).id;
      theirs = (await insertInstance(gw.gateway, other.tenantId, { name: 'errors theirs' })).id;
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const errorOf = (value: { __typename: string } | undefined) => value as { __typename: string; code?: string; message?: string };

    it('createInstance: validation, duplicate name, private webhook URL, plan limit, no caller', async () => {
      expect(errorOf(await create({ name: 'ab' }))).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/name/) });
      expect(errorOf(await create({ name: 'errors mine' }))).toMatchObject({ code: 'instance_name_taken' });
      // (This gateway allows private receivers for its delivery tests; the address guard has its own suite.)
      expect(errorOf(await create({ name: 'ftp hook', webhookUrl: 'ftp://example.com/hook' }))).toMatchObject({ code: 'invalid_request' });
      expect(errorOf(await create({ name: 'bad events', webhookEvents: ['nope'] }))).toMatchObject({ code: 'invalid_request' });
      const starter = await createTenant(gw.gateway, api, 'starter');
      expect((await create({ name: 'first one' }, { key: starter.liveKey })).__typename).toBe('MutationCreateInstanceSuccess');
      expect(errorOf(await create({ name: 'second one' }, { key: starter.liveKey }))).toMatchObject({ code: 'instance_limit_reached' });
      expect(errorOf(await create({ name: 'nobody' }, {}))).toMatchObject({ code: 'unauthorized' });
    });

    it('instance reads and changes: unknown, another tenant\'s, bad input', async () => {
      const key = { key: tenant.liveKey };
      expect(errorOf((await api.operation(GetInstance, { id: unknown }, key)).body.data!.instance)).toMatchObject({ code: 'not_found' });
      expect(errorOf((await api.operation(GetInstance, { id: 'not-a-uuid' }, key)).body.data!.instance)).toMatchObject({ code: 'not_found' });
      expect(errorOf((await api.operation(GetInstance, { id: theirs }, key)).body.data!.instance)).toMatchObject({ code: 'forbidden' });
      expect(errorOf((await api.operation(UpdateInstance, { id: theirs, input: { name: 'mine now' } }, key)).body.data!.updateInstance)).toMatchObject({ code: 'forbidden' });
      expect(errorOf((await api.operation(UpdateInstance, { id: mine, input: { name: 'x' } }, key)).body.data!.updateInstance)).toMatchObject({ code: 'invalid_request' });
      expect(errorOf((await api.operation(DeleteInstance, { id: theirs }, key)).body.data!.deleteInstance)).toMatchObject({ code: 'forbidden' });
      expect(errorOf((await api.operation(DeleteInstance, { id: unknown }, key)).body.data!.deleteInstance)).toMatchObject({ code: 'not_found' });
      expect(errorOf((await api.operation(SetInstanceActive, { input: { id: theirs, active: false } }, key)).body.data!.setInstanceActive)).toMatchObject({ code: 'forbidden' });
      expect(errorOf((await api.operation(SetInstanceActive, { input: { id: unknown, active: true } }, key)).body.data!.setInstanceActive)).toMatchObject({ code: 'not_found' });
      expect(errorOf((await api.operation(RequestQrCode, { id: theirs }, key)).body.data!.requestQrCode)).toMatchObject({ code: 'forbidden' });
      expect(errorOf((await api.operation(RegenerateQrCode, { id: unknown }, key)).body.data!.regenerateQrCode)).toMatchObject({ code: 'not_found' });
      expect(errorOf((await api.operation(DisconnectInstance, { id: theirs }, key)).body.data!.disconnectInstance)).toMatchObject({ code: 'forbidden' });
      // Still there, unchanged.
      expect((await api.get(`/v1/chat/instances/${theirs}`, { key: other.liveKey })).body.data.name).toBe('errors theirs');
    });

    it('webhooks: refused URLs and events, no URL to test, unknown delivery', async () => {
      const key = { key: tenant.liveKey };
      const set = (url: string, events?: string[]) => api.operation(SetWebhook, { instanceId: mine, input: { url, events } }, key);
      expect(errorOf((await set('ftp://example.com/hook')).body.data!.setWebhook)).toMatchObject({ code: 'invalid_request' });
      expect(errorOf((await set('not a url')).body.data!.setWebhook)).toMatchObject({ code: 'invalid_request' });
      expect(errorOf((await set('https://example.com/hook', ['groups.update'])).body.data!.setWebhook)).toMatchObject({ code: 'invalid_request' });
      expect(errorOf((await api.operation(TestWebhook, { instanceId: mine }, key)).body.data!.testWebhook)).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/webhook URL/) });
      expect(errorOf((await api.operation(TestWebhook, { instanceId: theirs }, key)).body.data!.testWebhook)).toMatchObject({ code: 'forbidden' });
      expect(errorOf((await api.operation(RedeliverWebhook, { instanceId: mine, deliveryId: unknown }, key)).body.data!.redeliverWebhook)).toMatchObject({ code: 'not_found' });
      expect(errorOf((await api.operation(RedeliverWebhook, { instanceId: theirs, deliveryId: unknown }, key)).body.data!.redeliverWebhook)).toMatchObject({ code: 'forbidden' });
    });

    it('instance sends: bad number, bad media, inactive, another tenant\'s instance, no caller', async () => {
      const key = { key: tenant.liveKey };
      expect(errorOf((await api.operation(SendText, { instanceId: mine, to: '12', message: 'x' }, key)).body.data!.sendText)).toMatchObject({ code: 'invalid_request' });
      expect(errorOf((await api.operation(SendText, { instanceId: mine, to: '5511988887777', message: '' }, key)).body.data!.sendText)).toMatchObject({ code: 'invalid_request' });
      expect(errorOf((await api.operation(SendText, { instanceId: theirs, to: '5511988887777', message: 'x' }, key)).body.data!.sendText)).toMatchObject({ code: 'forbidden' });
      const media = { to: '5511988887777', mediaUrl: 'ftp://example.com/cat.png', mediaType: 'image' as const };
      expect(errorOf((await api.operation(SendMedia, { instanceId: mine, input: media }, key)).body.data!.sendMedia)).toMatchObject({ code: 'invalid_request' });
      await api.operation(SetInstanceActive, { input: { id: mine, active: false } }, key);
      expect(errorOf((await api.operation(SendText, { instanceId: mine, to: '5511988887777', message: 'x' }, key)).body.data!.sendText)).toMatchObject({ code: 'instance_inactive' });
      await api.operation(SetInstanceActive, { input: { id: mine, active: true } }, key);
      expect(errorOf((await api.operation(SendText, { instanceId: mine, to: '5511988887777', message: 'x' }, {})).body.data!.sendText)).toMatchObject({ code: 'unauthorized' });
    });

    it('masks unexpected failures: no internal detail leaves, the rest of the answer stands', async () => {
      // A stored code too long for any QR image makes rendering it fail inside the resolver.
      const broken = await insertInstance(gw.gateway, tenant.tenantId, { name: 'broken qr', state: 'created' });
      await gw.gateway.infra.db.prisma.qrCode.create({
        data: { instanceId: broken.id, attemptId: `broken-${broken.id}`, code: 'x'.repeat(5000), expiresAt: new Date(Date.now() + 60_000) },
      });
      const answer = await api.operation(GetInstance, { id: broken.id }, { key: tenant.liveKey });
      expect(answer.status).toBe(200);
      expect(answer.body.data!.instance).toMatchObject({ __typename: 'QueryInstanceSuccess', data: { id: broken.id, name: 'broken qr', qrCode: null } });
      expect(answer.body.errors).toEqual([expect.objectContaining({ message: 'Unexpected error.', path: ['instance', 'data', 'qrCode'] })]);
      expect(JSON.stringify(answer.body.errors)).not.toMatch(/too big|amount of data|stack/i);
    });

    it('answers a wrongly typed variable with a 4xx, not a typed error or a 5xx', async () => {
      const wrong = await api.operation(SendMedia, { instanceId: mine, input: { to: '1', mediaUrl: 'x', mediaType: 'gif' as never } }, { key: tenant.liveKey });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors?.[0]?.message).toMatch(/mediaType|MediaType/);
    });
  });
});
