import type { Config } from '../config.js';
import { createInvalidationBus, type InvalidationBus } from '../infra/cache/invalidation-bus.js';
import { type Database, openDatabase } from '../infra/db/database.js';
import type { EmbeddedFolder } from '../infra/db/embedded-folder.js';
import { applyMigrations } from '../infra/db/migrate.js';
import type { Logger } from '../infra/logger.js';
import { createMetrics, type Metrics } from '../infra/metrics.js';
import { createOutboundHttp, type OutboundHttp } from '../infra/outbound-http.js';
import { createLimiterFactory, type LimiterFactory } from '../infra/rate-limit/limiter-factory.js';
import { memoryCounts, redisCounts } from '../infra/rate-limit/request-counts.js';
import { createRequestLimiter, type RequestLimiter, REQUEST_WINDOWS, unlimited } from '../infra/rate-limit/request-limiter.js';
import { createRedis, type Redis } from '../infra/redis.js';
import { mediaStoreName, type OpenedMediaStore, openMediaStore } from '../infra/media/media-stores.js';
import { agreeOnMediaStore } from '../infra/nodes/media-store-agreement.js';
import { mediaLinkKey } from '../infra/media/media-link-key.js';
import { type MediaLinkSettings, signedMediaLinks } from '../domain/media/signed-links.js';
import type { MediaLinks } from '../domain/media/media-links.port.js';

/** The storage the gateway keeps its state in, and the shared counters and caches beside it. */
export interface Storage {
  db: Database;
  redis: Redis | undefined;
  limiters: LimiterFactory;
  requestLimiter: RequestLimiter;
  metrics: Metrics;
  invalidation: InvalidationBus;
  outbound: OutboundHttp;
  /** Where media is kept (MEDIA_STORE), or null when it is not (docs/media.md). */
  mediaStore: OpenedMediaStore | null;
  /** What this node records in GatewayNode.mediaStore for its peers to compare. */
  mediaStoreName: string;
  /** How media links are signed: the key every node shares (GatewaySecret `media-links`), TTL, PUBLIC_URL. */
  mediaLinkSettings: MediaLinkSettings;
  mediaLinks: MediaLinks;
  /** Every statement, counted (the event publisher thread's too). */
  onQuery: (sql: string) => void;
}

/** Opens and migrates the database, connects Redis when configured, and builds what counts and limits. */
export async function openStorage(config: Config, logger: Logger, options: { rateLimiting?: boolean; onQuery?: (sql: string) => void; embedded?: EmbeddedFolder }): Promise<Storage> {
  // Every round trip is counted (GET /metrics); the counter exists once the metrics do.
  let roundTrip = () => {};
  // The event publisher thread's statements count too.
  const onQuery = (sql: string) => {
    roundTrip();
    options.onQuery?.(sql);
  };
  const db = openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    embedded: options.embedded,
    onQuery,
    timeouts: {
      connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      transactionMs: config.DATABASE_TRANSACTION_TIMEOUT_MS,
    },
    onConnectionError: (error) => logger.warn({ err: { message: error.message } }, 'database connection lost; reconnecting on next query'),
  });
  const applied = await applyMigrations(db.adapterFactory);
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  logger.info({ database: db.kind }, 'database ready');
  const storeName = mediaStoreName(config);
  // Nodes of one PostgreSQL database must keep media in one place; an embedded database has one node.
  if (db.kind !== 'pglite') await agreeOnMediaStore(db.statements, storeName, config.NODE_ID).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });

  const redis = config.REDIS_URL ? createRedis(config.REDIS_URL, logger) : undefined;
  const limiters = createLimiterFactory(redis, config.REDIS_PREFIX);
  const slotTtlMs = config.RATE_LIMIT_SLOT_TTL_S * 1000;
  const windows = [...REQUEST_WINDOWS];
  // Each caller's limits come with its credential (its plan's, or its tenant's own).
  const requestLimiter = options.rateLimiting === false
    ? unlimited
    : createRequestLimiter(redis ? redisCounts(redis, config.REDIS_PREFIX, windows, slotTtlMs, logger) : memoryCounts(windows, slotTtlMs));
  const metrics = createMetrics({ prisma: db.prisma, redis });
  roundTrip = metrics.databaseRoundTrip;
  const invalidation = createInvalidationBus(redis && { url: config.REDIS_URL!, publisher: redis, prefix: config.REDIS_PREFIX, logger });
  const outbound = createOutboundHttp({ allowInsecure: config.WEBHOOK_ALLOW_INSECURE, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
  const mediaStore = openMediaStore(config);
  if (mediaStore) logger.info({ mediaStore: mediaStore.name }, 'media store ready');
  // A store that cannot be used does not stop the gateway: messages go on, and each file not kept
  // says why in media.error (docs/media.md, "Stores"); this says it once, at start.
  mediaStore?.check?.().catch((error: Error) => logger.warn({ mediaStore: mediaStore.name, err: { message: error.message } }, 'the media store cannot keep files: media will not be kept until it can'));
  
  const mediaLinkSettings = { key: await mediaLinkKey(db.prisma), ttlMs: config.MEDIA_LINK_TTL, publicUrl: config.PUBLIC_URL };
  const mediaLinks = signedMediaLinks(mediaLinkSettings);
  return { db, redis, limiters, requestLimiter, metrics, invalidation, outbound, mediaStore, mediaStoreName: storeName, mediaLinkSettings, mediaLinks, onQuery };
}
