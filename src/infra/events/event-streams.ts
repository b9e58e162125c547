import type { Config } from '../../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { createAmqpBroker } from './amqp-broker.js';
import type { Broker, BrokerName } from './broker.js';
import { createEventStream, type EventStreamOptions } from './event-stream.js';
import { createNatsBroker } from './nats-broker.js';
import { pendingEvents } from './pending-events.js';

export type EventStreams = ReturnType<typeof createEventStreams>;

/** The brokers EVENTS_AMQP_URL and EVENTS_NATS_URL configure, each fed from the outbox by its own stream. */
export function createEventStreams(deps: { config: Config; db: Database; logger: Logger; metrics: Metrics; options?: EventStreamOptions }) {
  const { config, logger, metrics } = deps;
  const brokers: Broker[] = [];
  if (config.EVENTS_AMQP_URL) brokers.push(createAmqpBroker({ url: config.EVENTS_AMQP_URL, exchange: config.EVENTS_AMQP_EXCHANGE, logger }));
  if (config.EVENTS_NATS_URL) {
    brokers.push(createNatsBroker({ url: config.EVENTS_NATS_URL, stream: config.EVENTS_NATS_STREAM, subjectPrefix: config.EVENTS_NATS_SUBJECT_PREFIX, logger }));
  }
  const pending = pendingEvents(deps.db);
  const streams = brokers.map((broker) =>
    createEventStream({
      broker,
      pending,
      logger,
      onPublished: (count) => metrics.eventsPublished(broker.name, count),
      onFailed: (count) => metrics.eventsFailed(broker.name, count),
      options: deps.options,
    }),
  );
  metrics.watchEventStreams(streams);

  return {
    /** The brokers each new event is kept for. */
    names: brokers.map((b) => b.name) as readonly BrokerName[],
    streams,
    start() {
      for (const stream of streams) stream.start();
    },
    /** Events were committed on this node. */
    committed(at: Date) {
      for (const stream of streams) stream.committed(at);
    },
    /** `/readyz` data: each configured broker `ok` or `down` (none configured: nothing). */
    readiness(): { brokers?: Partial<Record<BrokerName, 'ok' | 'down'>> } {
      if (streams.length === 0) return {};
      return { brokers: Object.fromEntries(streams.map((s) => [s.name, s.isUp() ? 'ok' : 'down'])) };
    },
    async stop() {
      await Promise.all(streams.map((s) => s.stop()));
    },
  };
}
