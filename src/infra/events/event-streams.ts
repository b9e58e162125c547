import type { Config } from '../../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { BrokerName } from './broker.js';
import { brokerSettings, configuredBrokers, createBrokers } from './brokers.js';
import { createEventStream, type EventStreamOptions } from './event-stream.js';
import { pendingEvents } from './pending-events.js';
import { createPublisherThread } from './publisher-thread.js';
import { type MediaLinkSettings, signedMediaLinks } from '../../domain/media/signed-links.js';

export type EventStreams = ReturnType<typeof createEventStreams>;

/**
 * The brokers EVENTS_AMQP_URL and EVENTS_NATS_URL configure, fed by one stream: on PostgreSQL in a thread
 * of its own, so the request loop pays one message per batch of commits; embedded, in this thread, where
 * the database lives.
 */
export function createEventStreams(deps: {
  config: Config;
  db: Database;
  logger: Logger;
  metrics: Metrics;
  onQuery?: (text: string) => void;
  options?: EventStreamOptions;
  /** How brokers' messages sign their media links (in the publisher thread too). */
  mediaLinks?: MediaLinkSettings;
}) {
  const { config, db, logger, metrics } = deps;
  const settings = brokerSettings(config);
  const names = configuredBrokers(settings);
  const counts = { onPublished: metrics.eventsPublished, onFailed: metrics.eventsFailed };
  const stream =
    names.length === 0
      ? undefined
      : db.kind === 'postgres'
        ? createPublisherThread({
            names,
            data: {
              settings,
              databaseUrl: config.DATABASE_URL!,
              timeouts: {
                connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
                statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
                transactionMs: config.DATABASE_TRANSACTION_TIMEOUT_MS,
              },
              logLevel: logger.level,
              options: deps.options,
              mediaLinks: deps.mediaLinks,
            },
            logger,
            onQuery: deps.onQuery,
            ...counts,
          })
        : createEventStream({ brokers: createBrokers(settings, logger), pending: pendingEvents(db), logger, options: deps.options, links: deps.mediaLinks && signedMediaLinks(deps.mediaLinks), ...counts });
  const brokers = stream?.brokers ?? [];
  metrics.watchEventStreams(brokers);

  return {
    /** The brokers each new event is kept for. */
    names: names as readonly BrokerName[],
    /** Each configured broker: up or not, and its backlog's age. */
    brokers,
    start() {
      stream?.start();
    },
    /** Events were committed on this node. */
    committed(at: Date) {
      stream?.committed(at);
    },
    /** `/readyz` data: each configured broker `ok` or `down` (none configured: nothing). */
    readiness(): { brokers?: Partial<Record<BrokerName, 'ok' | 'down'>> } {
      if (brokers.length === 0) return {};
      return { brokers: Object.fromEntries(brokers.map((b) => [b.name, b.isUp() ? 'ok' : 'down'])) };
    },
    async stop() {
      await stream?.stop();
    },
  };
}
