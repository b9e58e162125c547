import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone, sleep } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { amqpConsumer, brokersToCut, closeGatewayAmqpConnections, type Consumed, natsConsumer } from '../../kit/worlds/brokers.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client, type HttpResponse } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

/** Every id arrived; an id seen twice carried the same bytes; each message's events came in the order they happened. */
function expectComplete(received: Consumed[], expected: string[]) {
  const byId = new Map<string, string>();
  for (const message of received) {
    const seen = byId.get(message.id);
    if (seen !== undefined) expect(message.body).toBe(seen);
    byId.set(message.id, message.body);
  }
  expect(expected.filter((id) => !byId.has(id))).toEqual([]);
  // Per message: upsert, then sent, then delivered (first arrivals; a repeat may come later).
  const steps = new Map<string, string[]>();
  const first = new Set<string>();
  for (const message of received) {
    if (first.has(message.id)) continue;
    first.add(message.id);
    const body = JSON.parse(message.body);
    if (body.event === 'messages.upsert') steps.set(body.data.messageId, ['upsert']);
    if (body.event === 'messages.update') steps.get(body.data.messageId)?.push(body.data.status);
  }
  for (const [messageId, seen] of steps) expect(seen, messageId).toEqual(['upsert', 'sent', 'delivered'].slice(0, seen.length));
}

describe.each(MODES)('event streams through broker outages — $name', (mode) => {
  let brokers: Awaited<ReturnType<typeof brokersToCut>>;
  let names: Awaited<ReturnType<typeof brokersToCut>>['names'];
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;
  let nats: Awaited<ReturnType<typeof brokersToCut>>['nats'];

  beforeAll(async () => {
    // A NATS server of this suite's own (stopping it cannot disturb other suites); RabbitMQ is taken
    // away by closing the gateway's connections from the server's side.
    brokers = await brokersToCut();
    ({ names, nats } = brokers);
    gw = await startTestGateway(mode, { env: brokers.env });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
  });
  afterAll(async () => {
    await gw?.close();
    await brokers?.close();
  });

  it('loses nothing while RabbitMQ drops the gateway and NATS is stopped for 10 s under 20 sends/s', { timeout: 120_000 }, async () => {
    const amqp = await amqpConsumer(names.exchange, `${tenant.tenantId}.#`);
    try {
      const { id } = await connectedV1Instance(api, tenant.liveKey, 'Outage');
      await eventually(async () => gw.gateway.infra.eventStreams.brokers.every((b) => b.isUp()), Boolean, 15_000);
      // 20 sends a second on a fixed schedule, whatever each answer's latency: each time the sender
      // wakes it makes every send due by then, so a busy machine delays sends but never drops any.
      const answers: Array<Promise<HttpResponse>> = [];
      const started = Date.now();
      const due = () => Math.floor((Date.now() - started) / 50) + 1;
      /** The number of sends due when the schedule was stopped. */
      let stoppedAt: number | undefined;
      const sender = (async () => {
        for (;;) {
          const n = stoppedAt ?? due();
          while (answers.length < n) {
            answers.push(api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: newPhone().slice(1), text: `outage ${answers.length}` } }));
          }
          if (stoppedAt !== undefined) return;
          await sleep(started + answers.length * 50 - Date.now());
        }
      })();
      await sleep(1500);
      // The outage: NATS stopped, and every connection the gateway makes to RabbitMQ closed by the server, for 10 s.
      await nats.stop();
      const outageEnds = Date.now() + 10_000;
      let closed = 0;
      while (Date.now() < outageEnds) closed += await closeGatewayAmqpConnections(process.pid);
      expect(closed).toBeGreaterThan(0);
      const during = await api.get('/readyz');
      expect(during.status).toBe(200);
      expect(during.body.data.brokers.nats).toBe('down');
      await nats.start();
      await sleep(1500);
      stoppedAt = due();
      await sender;
      const sent: string[] = [];
      for (const answer of await Promise.all(answers)) {
        expect(answer.status, answer.text).toBe(200);
        sent.push(answer.body.data.id);
      }
      // The schedule covered the 1.5 s before, the outage of at least 10 s and the 1.5 s after, at 20 a second.
      expect(sent.length).toBeGreaterThanOrEqual(13 * 20);

      // Everything the instance emitted, once its messages are all delivered.
      const prisma = gw.gateway.infra.db.prisma;
      await eventually(() => prisma.message.count({ where: { id: { in: sent }, status: 'delivered' } }), (n) => n === sent.length, 30_000);
      const expected = (await prisma.outboxEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' }, select: { deliveryId: true } })).map((e) => e.deliveryId!);
      // Within 30 s of the brokers' return, all of it is on both.
      const all = (c: { received: Consumed[] }) => expected.every((d) => c.received.some((m) => m.id === d));
      await eventually(async () => all(amqp), Boolean, 30_000);
      expectComplete(amqp.received, expected);
      const fromNats = await natsConsumer(names.stream, `${names.prefix}.${tenant.tenantId}.${id}.>`, nats.url);
      try {
        await eventually(async () => all(fromNats), Boolean, 30_000);
        // The stream dropped repeats by Nats-Msg-Id: each event is there once.
        expect(fromNats.received.length).toBe(new Set(fromNats.received.map((m) => m.id)).size);
        expectComplete(fromNats.received, expected);
      } finally {
        await fromNats.close();
      }
      expect(gw.logs.lines.some((l) => l.includes('event broker down (NATS)'))).toBe(true);
      expect(gw.logs.lines.some((l) => l.includes('event broker back (NATS)'))).toBe(true);
      expect(gw.logs.lines.some((l) => l.includes('event broker down (RabbitMQ)'))).toBe(true);
      expect(gw.logs.lines.some((l) => l.includes('event broker back (RabbitMQ)'))).toBe(true);
      const ready = await eventually(() => api.get('/readyz'), (r) => r.body.data.brokers.amqp === 'ok' && r.body.data.brokers.nats === 'ok', 15_000);
      expect(ready.status).toBe(200);
    } finally {
      await amqp.close();
      await nats.start().catch(() => {});
    }
  });

  it('goes on publishing to RabbitMQ while NATS is down, and catches NATS up when it is back', { timeout: 120_000 }, async () => {
    const amqp = await amqpConsumer(names.exchange, `${tenant.tenantId}.#`);
    try {
      const { id } = await connectedV1Instance(api, tenant.liveKey, 'One down');
      await eventually(async () => gw.gateway.infra.eventStreams.brokers.every((b) => b.isUp()), Boolean, 15_000);
      await nats.stop();
      await eventually(async () => gw.gateway.infra.eventStreams.brokers.find((b) => b.name === 'nats')!.isUp(), (up) => !up, 15_000);
      const stoppedAt = new Date();
      const sent: string[] = [];
      for (let n = 0; n < 10; n++) {
        const answer = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: newPhone().slice(1), text: `one down ${n}` } });
        expect(answer.status, answer.text).toBe(200);
        sent.push(answer.body.data.id);
      }
      const prisma = gw.gateway.infra.db.prisma;
      await eventually(() => prisma.message.count({ where: { id: { in: sent }, status: 'delivered' } }), (n) => n === sent.length, 30_000);
      const expected = (await prisma.outboxEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' }, select: { deliveryId: true } })).map((e) => e.deliveryId!);
      // RabbitMQ gets every event while NATS is still down; they stay waiting for NATS alone.
      await eventually(async () => expected.every((d) => amqp.received.some((m) => m.id === d)), Boolean, 30_000);
      expectComplete(amqp.received, expected);
      expect(gw.gateway.infra.eventStreams.brokers.find((b) => b.name === 'nats')!.isUp()).toBe(false);
      // What the sends made since NATS stopped waits for NATS alone, once the gateway has marked what
      // RabbitMQ confirmed (the consumer may see a message before the confirm reaches the gateway).
      const sinceStopped = () => prisma.outboxEvent.findMany({ where: { instanceId: id, createdAt: { gte: stoppedAt } }, select: { streams: true } });
      const waiting = await eventually(sinceStopped, (rows) => rows.every((row) => row.streams.join() === 'nats'), 15_000).catch(sinceStopped);
      expect(waiting.length).toBeGreaterThanOrEqual(sent.length);
      expect(waiting.map((e) => e.streams)).toEqual(waiting.map(() => ['nats']));

      await nats.start();
      const fromNats = await natsConsumer(names.stream, `${names.prefix}.${tenant.tenantId}.${id}.>`, nats.url);
      try {
        await eventually(async () => expected.every((d) => fromNats.received.some((m) => m.id === d)), Boolean, 30_000);
        expectComplete(fromNats.received, expected);
      } finally {
        await fromNats.close();
      }
      await eventually(() => prisma.outboxEvent.count({ where: { instanceId: id, NOT: { streams: { isEmpty: true } } } }), (n) => n === 0, 15_000);
    } finally {
      await amqp.close();
      await nats.start().catch(() => {});
    }
  });
});
