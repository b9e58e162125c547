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

/** The brokers EVENTS_AMQP_URL and EVENTS_NATS_URL configure, fed from the outbox by one stream. */
export function createEventStreams(deps: { config: Config; db: Database; logger: Logger; metrics: Metrics; options?: EventStreamOptions }) {
  const { config, logger, metrics } = deps;
  const brokers: Broker[] = [];
  if (config.EVENTS_AMQP_URL) brokers.push(createAmqpBroker({ url: config.EVENTS_AMQP_URL, exchange: config.EVENTS_AMQP_EXCHANGE, logger }));
  if (config.EVENTS_NATS_URL) {
    brokers.push(createNatsBroker({ url: config.EVENTS_NATS_URL, stream: config.EVENTS_NATS_STREAM, subjectPrefix: config.EVENTS_NATS_SUBJECT_PREFIX, logger }));
  }
  const stream = createEventStream({
    brokers,
    pending: pendingEvents(deps.db),
    logger,
    onPublished: (broker, count) => metrics.eventsPublished(broker, count),
    onFailed: (broker, count) => metrics.eventsFailed(broker, count),
    options: deps.options,
  });
  metrics.watchEventStreams(stream.brokers);

  return {
    /** The brokers each new event is kept for. */
    names: brokers.map((b) => b.name) as readonly BrokerName[],
    /** Each configured broker: up or not, and its backlog's age. */
    brokers: stream.brokers,
    /** The one reader that feeds them all. */
    stream,
    start() {
      if (brokers.length > 0) stream.start();
    },
    /** Events were committed on this node. */
    committed(at: Date) {
      if (brokers.length > 0) stream.committed(at);
    },
    /** `/readyz` data: each configured broker `ok` or `down` (none configured: nothing). */
    readiness(): { brokers?: Partial<Record<BrokerName, 'ok' | 'down'>> } {
      if (brokers.length === 0) return {};
      return { brokers: Object.fromEntries(stream.brokers.map((b) => [b.name, b.isUp() ? 'ok' : 'down'])) };
    },
    async stop() {
      await stream.stop();
    },
  };
}
