import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '../../../src/domain/events/catalogue.js';
import { decodeQr } from '../../../src/infra/qr-decode.js';
import { connectedSessionInstance, connectedV1Instance, eventually, newPhone, phoneInbox, sleep } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { amqpConsumer, brokerEnv, brokerNames, type Consumed, dropBrokerNames, NATS_URL, natsConsumer } from '../../kit/worlds/brokers.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';

const HEADERS = ['X-Webhook-Id', 'X-Webhook-Event', 'X-Hub-Signature-256', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

/** A consumer's messages as a Standard Webhooks verifier reads headers. */
const lowerHeaders = (m: Consumed) => Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k.toLowerCase(), v]));

describe.each(MODES)('event streams — $name', (mode) => {
  const names = brokerNames();
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  let amqpAll: Awaited<ReturnType<typeof amqpConsumer>>;
  let amqpA: Awaited<ReturnType<typeof amqpConsumer>>;
  let natsAll: Awaited<ReturnType<typeof natsConsumer>>;

  beforeAll(async () => {
    // Consumers first, as a tenant's tools would be: their queues exist before the first event.
    amqpAll = await amqpConsumer(names.exchange, '#');
    gw = await startTestGateway(mode, { env: { WEBHOOK_ALLOW_INSECURE: 'true', ...brokerEnv(names) } });
    api = client(gw.url);
    [tenantA, tenantB] = await Promise.all([createTenant(gw.gateway, api, 'enterprise'), createTenant(gw.gateway, api, 'enterprise')]);
    amqpA = await amqpConsumer(names.exchange, `${tenantA.tenantId}.#`);
    natsAll = await natsConsumer(names.stream, `${names.prefix}.>`);
  });
  afterAll(async () => {
    await Promise.all([amqpAll?.close(), amqpA?.close(), natsAll?.close()]);
    await gw?.close();
    await dropBrokerNames(names);
  });

  it('reports both brokers in /readyz', async () => {
    const ready = await eventually(() => api.get('/readyz'), (r) => r.body.data?.brokers?.amqp === 'ok' && r.body.data?.brokers?.nats === 'ok');
    expect(ready.status).toBe(200);
  });

  it('publishes every v1 event with the webhook bytes, delivery id and signatures on both brokers', async () => {
    const receiver = await startReceiver();
    try {
      const created = await api.post('/v1/chat/instances', { key: tenantA.liveKey, body: { name: 'Streamed v1', webhookUrl: `${receiver.url}/hook` } });
      const { id, webhookSecret } = created.body.data;
      const phone = newPhone();
      await api.post('/sandbox/scan', { body: { code: decodeQr((await api.get(`/v1/chat/instances/${id}/qr`, { key: tenantA.liveKey })).body.data.qrCode), phone } });
      await eventually(() => api.get(`/v1/chat/instances/${id}`, { key: tenantA.liveKey }), (r) => r.body.data.status === 'connected');
      const to = newPhone().slice(1);
      const sent = await api.post('/v1/messages/send', { key: tenantA.liveKey, body: { to, text: 'streamed' } });
      await eventually(() => phoneInbox(api, to), (r) => r.body.data.length === 1);
      await api.post('/sandbox/messages', { body: { from: newPhone().slice(1), to: phone.slice(1), text: 'Oi!' } });
      await api.post(`/sandbox/messages/${sent.body.data.id}/delete`, { body: { forEveryone: true } });

      // Every event kind reached the webhook; each of those deliveries is on both brokers, byte for byte.
      await eventually(async () => new Set(receiver.received.map((r) => r.headers['x-webhook-event'])), (kinds) => eventsOf('v1').every((k) => kinds.has(k)), 15_000);
      const deliveries = [...receiver.received];
      const onBoth = () => deliveries.every((d) => [amqpAll, natsAll].every((c) => c.received.some((m) => m.id === d.headers['x-webhook-id'])));
      await eventually(async () => onBoth(), Boolean, 15_000);
      const wh = new Webhook(webhookSecret.slice('whsec_'.length));
      for (const delivery of deliveries) {
        const deliveryId = String(delivery.headers['x-webhook-id']);
        const event = String(delivery.headers['x-webhook-event']);
        for (const [consumer, key] of [
          [amqpAll, `${tenantA.tenantId}.${id}.${event}`],
          [natsAll, `${names.prefix}.${tenantA.tenantId}.${id}.${event}`],
        ] as const) {
          const message = consumer.received.find((m) => m.id === deliveryId)!;
          expect(message.body).toBe(delivery.body);
          expect(message.key).toBe(key);
          expect(message.contentType).toBe('application/json');
          for (const name of HEADERS) expect(message.headers[name], name).toBeTruthy();
          expect(message.headers['X-Webhook-Id']).toBe(deliveryId);
          expect(message.headers['webhook-id']).toBe(deliveryId);
          expect(message.headers['X-Webhook-Event']).toBe(event);
          expect(await verifyHubSignature(webhookSecret, message.body, message.headers['X-Hub-Signature-256']!)).toBe(true);
          expect(() => wh.verify(message.body, lowerHeaders(message))).not.toThrow();
          expect(() => wh.verify(`${message.body} `, lowerHeaders(message))).toThrow();
        }
        expect(amqpAll.received.find((m) => m.id === deliveryId)!.type).toBe(event);
      }
    } finally {
      await receiver.close();
    }
  });

  it('publishes the events of an instance with no webhook URL, in its envelope, signed with its secret', async () => {
    const { id } = await connectedSessionInstance(api, tenantB.cookie, 'Streamed session');
    const rotate = async () => (await api.post(`/v1/chat/instances/${id}/webhook/secret`, { key: tenantB.liveKey })).body.data.webhookSecret as string;
    const previous = await rotate();
    const secret = await rotate();
    const from = newPhone().slice(1);
    const detail = await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenantB.cookie }), (r) => r.body.data.status === 'connected');
    const inbound = await api.post('/sandbox/messages', { body: { from, to: String(detail.body.data.phoneNumber ?? detail.body.data.phone).replace('+', ''), text: 'Olá', pushName: 'Bia' } });
    expect(inbound.status, inbound.text).toBe(200);
    const upsertOf = (c: { received: Consumed[] }) => c.received.find((m) => m.key.endsWith(`${id}.messages.upsert`) && JSON.parse(m.body).data.key.id === inbound.body.data.messageId);
    await eventually(async () => Boolean(upsertOf(amqpAll) && upsertOf(natsAll)), Boolean, 15_000);
    const [onAmqp, onNats] = [upsertOf(amqpAll)!, upsertOf(natsAll)!];
    expect(onNats.body).toBe(onAmqp.body);
    expect(onNats.id).toBe(onAmqp.id);
    expect(JSON.parse(onAmqp.body)).toEqual({
      event: 'messages.upsert',
      instance: { instanceName: 'Streamed session', instanceId: id },
      data: {
        key: { remoteJid: `${from}@sandbox.chat`, fromMe: false, id: inbound.body.data.messageId },
        message: { conversation: 'Olá', messageTimestamp: expect.stringMatching(/^\d{10}$/) },
        messageType: 'conversation',
        pushName: 'Bia',
      },
    });
    // Signed now, as its webhook would be: both secrets of the rotation above in webhook-signature, and
    // X-Hub-Signature-256 with the one before it until the overlap ends (docs/webhooks.md).
    for (const message of [onAmqp, onNats]) {
      expect(await verifyHubSignature(previous, message.body, message.headers['X-Hub-Signature-256']!)).toBe(true);
      expect(() => new Webhook(previous.slice('whsec_'.length)).verify(message.body, lowerHeaders(message))).not.toThrow();
      expect(() => new Webhook(secret.slice('whsec_'.length)).verify(message.body, lowerHeaders(message))).not.toThrow();
    }
  });

  it("signs a message's media link as it publishes, the signatures covering the body as sent", async () => {
    const { id } = await connectedSessionInstance(api, tenantB.cookie, 'Streamed media');
    const secret = (await api.post(`/v1/chat/instances/${id}/webhook/secret`, { key: tenantB.liveKey })).body.data.webhookSecret as string;
    const detail = await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenantB.cookie }), (r) => r.body.data.status === 'connected');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const to = String(detail.body.data.phoneNumber ?? detail.body.data.phone).replace('+', '');
    const inbound = await api.post('/sandbox/messages', { body: { from: newPhone().slice(1), to, type: 'image', media: { data: png.toString('base64'), mimetype: 'image/png' } } });
    expect(inbound.status, inbound.text).toBe(200);
    const messageId = inbound.body.data.messageId as string;
    const upsertOf = (c: { received: Consumed[] }) => c.received.find((m) => m.key.endsWith(`${id}.messages.upsert`) && JSON.parse(m.body).data.key.id === messageId);
    await eventually(async () => Boolean(upsertOf(amqpAll) && upsertOf(natsAll)), Boolean, 15_000);
    for (const message of [upsertOf(amqpAll)!, upsertOf(natsAll)!]) {
      const media = JSON.parse(message.body).data.message.media;
      expect(media).toMatchObject({ type: 'image', url: expect.stringMatching(new RegExp(`^/media/${messageId}\\?expires=\\d+&signature=`)), expiresAt: expect.any(String) });
      expect((await fetch(`${gw.url}${media.url}`)).status).toBe(200);
      expect(() => new Webhook(secret.slice('whsec_'.length)).verify(message.body, lowerHeaders(message))).not.toThrow();
    }
  });

  it('routes by tenant and instance: a consumer bound to one tenant gets only its events', async () => {
    const natsA = await natsConsumer(names.stream, `${names.prefix}.${tenantA.tenantId}.>`);
    try {
      const a = await connectedV1Instance(api, tenantA.liveKey, 'Routed A');
      const b = await connectedV1Instance(api, tenantB.liveKey, 'Routed B');
      const connectedOf = (c: { received: Consumed[] }, instanceId: string) =>
        c.received.some((m) => m.key.endsWith(`${instanceId}.connection.update`) && JSON.parse(m.body).data.status === 'connected');
      await eventually(async () => connectedOf(amqpAll, a.id) && connectedOf(amqpAll, b.id) && connectedOf(natsAll, b.id), Boolean, 15_000);
      await eventually(async () => connectedOf(amqpA, a.id) && connectedOf(natsA, a.id), Boolean, 15_000);
      for (const consumer of [amqpA, natsA]) {
        expect(consumer.received.length).toBeGreaterThan(0);
        expect(consumer.received.every((m) => m.key.includes(`${tenantA.tenantId}.`))).toBe(true);
        expect(consumer.received.some((m) => m.key.includes(b.id))).toBe(false);
      }
      // One instance: bind `<tenantId>.<instanceId>.#`.
      const amqpInstance = await amqpConsumer(names.exchange, `${tenantA.tenantId}.${a.id}.#`);
      try {
        await api.post(`/sandbox/instances/${a.id}/drop`);
        await api.post(`/sandbox/instances/${b.id}/drop`);
        await eventually(async () => amqpAll.received.filter((m) => m.key.endsWith(`${b.id}.connection.update`)).length >= 5, Boolean, 15_000);
        await eventually(async () => amqpInstance.received.filter((m) => m.key.endsWith('connection.update')).length >= 2, Boolean, 15_000);
        expect(amqpInstance.received.every((m) => m.key.startsWith(`${tenantA.tenantId}.${a.id}.`))).toBe(true);
      } finally {
        await amqpInstance.close();
      }
    } finally {
      await natsA.close();
    }
  });

  it('counts what it published in /metrics', async () => {
    const metrics = (await api.get('/metrics')).text;
    for (const broker of ['amqp', 'nats']) {
      const published = Number(new RegExp(`gateway_events_published_total\\{broker="${broker}"\\} (\\d+)`).exec(metrics)?.[1]);
      expect(published).toBeGreaterThan(5);
      expect(metrics).toContain(`gateway_events_backlog_age_seconds{broker="${broker}"}`);
      expect(metrics).toContain(`gateway_events_publish_failures_total{broker="${broker}"}`);
    }
  });
});

describe.each(MODES)('event streams when idle — $name', (mode) => {
  it('does not look at the outbox while nothing happens', { timeout: 60_000 }, async () => {
    const names = brokerNames();
    const outboxQueries: number[] = [];
    const gw = await startTestGateway(mode, {
      env: brokerEnv(names),
      infra: { onQuery: (sql) => void (sql.includes('"OutboxEvent"') && outboxQueries.push(Date.now())) },
    });
    try {
      const api = client(gw.url);
      await eventually(() => api.get('/readyz'), (r) => r.body.data?.brokers?.amqp === 'ok' && r.body.data?.brokers?.nats === 'ok', 15_000);
      // An event: published, then the streams go quiet (one look per broker every 30 s at most).
      const tenant = await createTenant(gw.gateway, api);
      await connectedV1Instance(api, tenant.liveKey, 'Quiet');
      await eventually(async () => (await gw.gateway.infra.db.prisma.outboxEvent.count({ where: { NOT: { streams: { isEmpty: true } } } })) === 0, Boolean, 15_000);
      await sleep(500);
      const from = Date.now();
      await sleep(4000);
      expect(outboxQueries.filter((at) => at >= from)).toEqual([]);
    } finally {
      await gw.close();
      await dropBrokerNames(names);
    }
  });
});

describe.each(MODES)('event streams when the NATS stream is deleted — $name', (mode) => {
  it('declares the stream again and publishes the events it refused meanwhile', { timeout: 60_000 }, async () => {
    const names = brokerNames();
    // At debug level: a refused publish is logged there, and a failure below shows it.
    const gw = await startTestGateway(mode, { env: { ...brokerEnv(names), LOG_LEVEL: 'debug' } });
    try {
      const api = client(gw.url);
      await eventually(() => api.get('/readyz'), (r) => r.body.data?.brokers?.nats === 'ok', 15_000);
      const tenant = await createTenant(gw.gateway, api);
      const { id } = await connectedV1Instance(api, tenant.liveKey, 'Deleted stream');
      const prisma = gw.gateway.infra.db.prisma;
      const waiting = () => prisma.outboxEvent.count({ where: { NOT: { streams: { isEmpty: true } } } });
      await eventually(waiting, (n) => n === 0, 15_000);
      // Someone deletes the stream under the running gateway: the next publications find no stream.
      const nc = await natsConnect({ servers: NATS_URL });
      await (await jetstreamManager(nc)).streams.delete(names.stream);
      await nc.close();
      const deletedAt = new Date();
      const sent = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: newPhone().slice(1), text: 'after the stream was deleted' } });
      expect(sent.status, sent.text).toBe(200);
      await eventually(() => prisma.message.count({ where: { id: sent.body.data.id, status: 'delivered' } }), (n) => n === 1, 15_000);
      await eventually(waiting, (n) => n === 0, 30_000).catch(async (error: Error) => {
        // What waits for which broker, the stream's counters and what the brokers said meanwhile, so a failure here can be explained.
        const left = await prisma.outboxEvent.findMany({ where: { NOT: { streams: { isEmpty: true } } }, select: { event: true, streams: true, createdAt: true } });
        const counters = (await api.get('/metrics')).text.split('\n').filter((line) => /^gateway_events_/.test(line));
        throw new Error(`${error.message}\n${JSON.stringify(left)}\n${counters.join('\n')}\n${gw.logs.lines.filter((line) => /"broker"|NATS/.test(line)).join('\n')}`);
      });
      const expected = (await prisma.outboxEvent.findMany({ where: { instanceId: id, createdAt: { gte: deletedAt } }, select: { deliveryId: true } })).map((e) => e.deliveryId!);
      expect(expected.length).toBeGreaterThan(0);
      const consumer = await natsConsumer(names.stream, `${names.prefix}.${tenant.tenantId}.${id}.>`);
      try {
        await eventually(async () => expected.filter((d) => !consumer.received.some((m) => m.id === d)), (missing) => missing.length === 0, 15_000);
      } finally {
        await consumer.close();
      }
    } finally {
      await gw.close();
      await dropBrokerNames(names);
    }
  });
});
