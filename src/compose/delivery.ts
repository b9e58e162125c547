import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { liveEventsOf, type LiveFeed } from '../domain/network/live-events.js';
import { createOutbox, type Outbox } from '../infra/db/outbox.js';
import { createEventStreams, type EventStreams } from '../infra/events/event-streams.js';
import { createLiveFeed } from '../infra/live-feed.js';
import type { Logger } from '../infra/logger.js';
import { leaseStatements } from '../infra/nodes/lease-statements.js';
import { createPlacement, type Placement } from '../infra/nodes/placement.js';
import { createDeliveryWorker, type DeliveryWorker } from '../infra/webhooks/delivery-worker.js';
import { memorySchedule, redisSchedule } from '../infra/webhooks/schedule.js';
import type { Storage } from './storage.js';

/** How what the gateway stores goes out: the outbox, webhooks, brokers, live subscriptions, and which node owns which instance. */
export interface Delivery {
  outbox: Outbox;
  eventStreams: EventStreams;
  deliveries: DeliveryWorker;
  placement: Placement;
  liveFeed: LiveFeed;
}

export function wireDelivery(config: Config, logger: Logger, storage: Storage, jidDomainOf: (integration: string) => string): Delivery {
  const { db, redis, metrics, invalidation, outbound } = storage;
  const eventStreams = createEventStreams({ config, db, logger, metrics, onQuery: storage.onQuery, mediaLinks: storage.mediaLinkSettings });
  const outbox = createOutbox(db.prisma, {
    jidDomainOf,
    firstDelayMs: (config.WEBHOOK_RETRY_DELAYS[0] ?? 0) * 1000,
    streams: eventStreams.names,
    publicUrl: config.PUBLIC_URL,
  });
  const deliveries = createDeliveryWorker({
    prisma: db.prisma,
    schedule: redis ? redisSchedule(redis, config.REDIS_PREFIX, logger) : memorySchedule(),
    http: outbound,
    logger,
    links: storage.mediaLinks,
    onAttempt: metrics.webhookAttempt,
    options: {
      retryDelaysSeconds: config.WEBHOOK_RETRY_DELAYS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      perEndpoint: 32,
      total: 256,
      idlePollMs: 5000,
    },
  });
  const shared = redis && { url: config.REDIS_URL!, publisher: redis, prefix: config.REDIS_PREFIX, logger };
  const placement = createPlacement({
    // One process owns an embedded data folder, so its id can stay the same across restarts.
    node: config.NODE_ID ?? (db.kind === 'pglite' ? 'embedded' : `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`),
    leaseMs: config.NODE_LEASE_MS,
    sql: leaseStatements(db.statements, config.NODE_LEASE_MS, storage.mediaStoreName),
    invalidation,
    redis: shared,
    logger,
  });
  const liveFeed = createLiveFeed(shared);
  outbox.onCommitted((events) => {
    liveFeed.publish(events.flatMap(liveEventsOf));
    eventStreams.committed(events[0]!.createdAt);
  });
  outbox.onDue((due) => void deliveries.scheduled(due).catch((error: unknown) => logger.error({ err: error }, 'scheduling webhook deliveries failed')));
  return { outbox, eventStreams, deliveries, placement, liveFeed };
}
