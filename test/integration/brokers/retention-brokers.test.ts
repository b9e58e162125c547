import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubSignature } from '../../../src/domain/webhooks/signature.js';
import { connectedV1Instance, eventually, newPhone } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { amqpConsumer, brokersToCut, type Consumed, natsConsumer } from '../../kit/worlds/brokers.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

describe.each(MODES)('deleting an instance while the brokers are down — $name', (mode) => {
  let brokers: Awaited<ReturnType<typeof brokersToCut>>;
  let names: Awaited<ReturnType<typeof brokersToCut>>['names'];
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;
  let nats: Awaited<ReturnType<typeof brokersToCut>>['nats'];
  let rabbit: Awaited<ReturnType<typeof brokersToCut>>['rabbit'];

  beforeAll(async () => {
    brokers = await brokersToCut();
    ({ names, nats, rabbit } = brokers);
    // A short connection retention makes the sweep look every few seconds.
    gw = await startTestGateway(mode, { env: { ...brokers.env, RETENTION_CONNECTIONS: '6s' } });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await brokers?.close();
  });

  it('keeps its unpublished events, signed with its secret, publishes every one to both when they are back (once on NATS), then removes them', { timeout: 120_000 }, async () => {
    const amqp = await amqpConsumer(names.exchange, `${tenant.tenantId}.#`);
    try {
      const instance = await connectedV1Instance(api, tenant.liveKey, `deleted while down ${Date.now()}`);
      const brokers = gw.gateway.infra.eventStreams.brokers;
      await eventually(async () => brokers.every((b) => b.isUp()), Boolean, 15_000);
      rabbit.cut();
      await nats.stop();
      await eventually(async () => brokers.every((b) => !b.isUp()), Boolean, 20_000);

      const prisma = gw.gateway.infra.db.prisma;
      const sent: string[] = [];
      for (let n = 0; n < 5; n++) {
        const answer = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: newPhone().slice(1), text: `before the delete ${n}` } });
        expect(answer.status, answer.text).toBe(200);
        sent.push(answer.body.data.id);
      }
      await eventually(() => prisma.message.count({ where: { id: { in: sent }, status: 'delivered' } }), (n) => n === sent.length, 15_000);
      const deleted = await api.delete(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey });
      expect(deleted.status, deleted.text).toBe(200);
      expect(await prisma.instance.count({ where: { id: instance.id } })).toBe(0);
      // Kept for the brokers, with the secrets that sign them: every event of the messages sent while they were down.
      const kept = await prisma.outboxEvent.findMany({ where: { instanceId: instance.id }, orderBy: { seq: 'asc' }, select: { deliveryId: true, payload: true, signing: true } });
      expect(kept.every((event) => event.signing !== null)).toBe(true);
      for (const id of sent) expect(kept.filter((event) => event.payload!.includes(id)).length, id).toBeGreaterThanOrEqual(3);
      const expected = kept.map((event) => event.deliveryId!);

      rabbit.restore();
      await nats.start();
      const all = (c: { received: Consumed[] }) => expected.every((id) => c.received.some((m) => m.id === id));
      await eventually(async () => all(amqp), Boolean, 30_000);
      const fromNats = await natsConsumer(names.stream, `${names.prefix}.${tenant.tenantId}.${instance.id}.>`, nats.url);
      try {
        await eventually(async () => all(fromNats), Boolean, 30_000);
        for (const consumer of [amqp, fromNats]) {
          const mine = consumer.received.filter((m) => expected.includes(m.id));
          // At least once: every event, and a repeat (RabbitMQ, after a reconnect) carries the same bytes.
          expect([...new Set(mine.map((m) => m.id))].sort()).toEqual([...expected].sort());
          const bodies = new Map<string, string>();
          for (const message of mine) {
            expect(message.body).toBe(bodies.get(message.id) ?? message.body);
            bodies.set(message.id, message.body);
            expect(message.headers['X-Hub-Signature-256']).toBe(hubSignature(instance.secret, message.body));
          }
        }
        // The stream drops repeats by Nats-Msg-Id: there, each event is there once.
        expect(fromNats.received.filter((m) => expected.includes(m.id))).toHaveLength(expected.length);
      } finally {
        await fromNats.close();
      }
      // Published everywhere: the sweep removes what is left of the instance.
      await eventually(() => prisma.outboxEvent.count({ where: { instanceId: instance.id } }), (n) => n === 0, 20_000);
    } finally {
      await amqp.close();
      rabbit.restore();
      await nats.start().catch(() => {});
    }
  });
});
