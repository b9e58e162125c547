import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Broker, BrokerMessage, BrokerName } from '../../src/infra/events/broker.js';
import { createEventStream, type EventStream } from '../../src/infra/events/event-stream.js';
import type { PendingEvent, PendingEvents } from '../../src/infra/events/pending-events.js';
import { createLogger } from '../../src/infra/logger.js';

/** A broker that is up and publishes what `publish` says it confirmed, recording what it took. */
function fakeBroker(name: BrokerName, publish: (messages: BrokerMessage[]) => Promise<number>) {
  const taken: string[] = [];
  const broker: Broker = {
    name,
    isUp: () => true,
    async publish(messages) {
      const confirmed = await publish(messages);
      taken.push(...messages.slice(0, confirmed).map((m) => m.id));
      return confirmed;
    },
    onUp: () => {},
    onDown: () => {},
    start: () => {},
    close: async () => {},
  };
  return { broker, taken };
}

/** The outbox in memory, read and marked as pending-events.ts does: each broker gets the events that still list it, and loses what it confirmed. */
function memoryOutbox() {
  const events: PendingEvent[] = [];
  let seq = 0;
  const pending: PendingEvents = {
    oldest: async (broker) => events.find((e) => e.streams.includes(broker))?.createdAt ?? null,
    async batch(brokers, limit, publish) {
      const read = events.filter((e) => e.streams.some((s) => brokers.includes(s))).slice(0, limit);
      const outcome = { contended: [], read: read.length, brokers: new Map(brokers.map((b) => [b, { events: 0, published: 0 }])) };
      if (read.length === 0) return outcome;
      const confirmed = await publish(read, brokers);
      for (const broker of brokers) {
        const own = read.filter((e) => e.streams.includes(broker));
        const published = confirmed.get(broker) ?? 0;
        for (const event of own.slice(0, published)) event.streams = event.streams.filter((s) => s !== broker);
        outcome.brokers.set(broker, { events: own.length, published });
      }
      return outcome;
    },
  };
  const add = (streams: BrokerName[]) => {
    const id = `event-${++seq}`;
    events.push({ id, tenantId: 't', instanceId: 'i', event: 'messages.update', deliveryId: id, payload: '{}', createdAt: new Date(), secrets: { webhookSecret: 's', previousWebhookSecret: null, webhookSecretRotatedAt: null }, streams });
    return id;
  };
  return { pending, add };
}

async function until(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

describe('event stream', () => {
  let stream: EventStream | undefined;
  afterEach(async () => {
    await stream?.stop();
    stream = undefined;
  });

  it('reads a refusing broker again when its pause ends during a pass that left it out, not at the idle look', async () => {
    const outbox = memoryOutbox();
    let natsRefuses = true;
    const nats = fakeBroker('nats', async (messages) => (natsRefuses ? ((natsRefuses = false), 0) : messages.length));
    // RabbitMQ confirms slowly: a pass that reads for it alone outlasts what is left of NATS's pause.
    const amqp = fakeBroker('amqp', async (messages) => (await sleep(400), messages.length));
    const refused = outbox.add(['amqp', 'nats']);
    stream = createEventStream({
      brokers: [amqp.broker, nats.broker],
      pending: outbox.pending,
      logger: createLogger('silent'),
      onPublished: () => {},
      onFailed: () => {},
      options: { batch: 500, contendedMs: 500, idleMs: 30_000, refusedMs: 300, gatherMs: 5 },
    });
    stream.start();
    // The first pass: RabbitMQ takes the event, NATS refuses it and pauses for 300 ms.
    expect(await until(() => amqp.taken.includes(refused), 5000)).toBe(true);
    expect(nats.taken).toEqual([]);
    // Before NATS's pause ends, an event for RabbitMQ alone starts a pass NATS sits out; it ends after the pause did.
    const later = outbox.add(['amqp']);
    stream.committed(new Date());
    expect(await until(() => amqp.taken.includes(later), 5000)).toBe(true);
    // NATS gets its event in the next pass, well before the 30 s idle look.
    expect(await until(() => nats.taken.includes(refused), 3000)).toBe(true);
  });
});
