import type { Config } from '../config.js';
import type { EngineEvents, EngineRegistry } from '../domain/instances/engine.port.js';
import { type Catalogue, catalogue as builtInCatalogue } from '../engines/catalogue.js';
import type { EngineRuntime, Owners } from '../engines/descriptor.js';
import { buildEngines, type OfferedEngines } from './engines.js';
import { systemClock } from '../domain/ports.js';
import type { Ports } from '../domain/services.js';
import { type Database, openDatabase } from '../infra/db/database.js';
import { embeddedVacuum } from '../infra/db/embedded-vacuum.js';
import { applyMigrations } from '../infra/db/migrate.js';
import { createApiKeyStore } from '../infra/db/stores/api-key-store.js';
import { createMessageRouter } from '../infra/db/stores/message-router.js';
import { createMessageStore } from '../infra/db/stores/message-store.js';
import { createSessionStore } from '../infra/db/stores/session-store.js';
import { createTenantStore } from '../infra/db/stores/tenant-store.js';
import { createSetupStore } from '../infra/db/stores/setup-store.js';
import type { Logger } from '../infra/logger.js';
import { createLimiterFactory, type LimiterFactory } from '../infra/rate-limit/limiter-factory.js';
import { createLoginThrottle } from '../infra/rate-limit/login-throttle.js';
import { createQuotaCounter } from '../infra/rate-limit/quota-counter.js';
import { createInstanceStore } from '../infra/db/stores/instance-store.js';
import { createMediaProbe } from '../infra/media-probe.js';
import { createQrImages } from '../infra/qr-images.js';
import { createWebhookSender } from '../infra/webhook-sender.js';
import { createOutboundHttp, systemResolver } from '../infra/outbound-http.js';
import { createOutbox } from '../infra/db/outbox.js';
import { createDeliveryLog } from '../infra/db/stores/delivery-log.js';
import { createDeliveryWorker, type DeliveryWorker } from '../infra/webhooks/delivery-worker.js';
import { memorySchedule, redisSchedule } from '../infra/webhooks/schedule.js';
import { memoryCounts, redisCounts } from '../infra/rate-limit/request-counts.js';
import { createRequestLimiter, type RequestLimiter, requestWindows, subjectOf, unlimited } from '../infra/rate-limit/request-limiter.js';
import { createRedis, type Redis } from '../infra/redis.js';
import { createLiveFeed } from '../infra/live-feed.js';
import { liveEventsOf, type LiveFeed } from '../domain/instances/live-events.js';
import { createInvalidationBus } from '../infra/cache/invalidation-bus.js';
import { createMetrics, type Metrics } from '../infra/metrics.js';
import { createMaintenance, MAINTENANCE, type Maintenance, type MaintenanceOptions } from '../infra/maintenance.js';
import { createRetention, type Retention } from '../infra/db/retention.js';
import { createPlacement, type Placement } from '../infra/nodes/placement.js';
import { leaseStatements, type LiveNode } from '../infra/nodes/lease-statements.js';
import { hostname } from 'node:os';
import { createEventStreams, type EventStreams } from '../infra/events/event-streams.js';
import { randomBytes } from 'node:crypto';

export interface Infra {
  config: Config;
  logger: Logger;
  db: Database;
  redis: Redis | undefined;
  limiters: LimiterFactory;
  requestLimiter: RequestLimiter;
  ports: Ports;
  /** The engines ENGINES offers. */
  engines: EngineRegistry;
  /** The offered engines as built: their routes, the OpenAPI parts those need, and each runtime by name. */
  offered: OfferedEngines;
  /** The simulated network as built, for suites that drive its engine directly; only when ENGINES offers it. */
  readonly sandbox: EngineRuntime;
  /** Wires the engines to the domain's handlers, and to the owners of instances. */
  connectEngines(handlers: EngineEvents, owners: Owners): void;
  /** Sends webhook deliveries; started by the gateway once it serves. */
  deliveries: DeliveryWorker;
  /** The safety sweeps; started by the gateway once it serves, with the domain's sweeps over queued messages. */
  maintenance: Maintenance;
  retention: Retention;
  /** QR and connection events for GraphQL subscriptions. */
  liveFeed: LiveFeed;
  metrics: Metrics;
  /** This node's place among the nodes sharing the database: which instances it owns. */
  placement: Placement;
  /** The brokers configured (EVENTS_*); started by the gateway once it serves. */
  eventStreams: EventStreams;
  /** Every dependency the gateway needs to serve (throws naming the one that is not), and the live nodes. */
  checkReady(): Promise<{
    database: 'ok';
    redis: 'ok' | 'not configured';
    node: string;
    nodes: LiveNode[];
    brokers?: Partial<Record<'amqp' | 'nats', 'ok' | 'down'>>;
  }>;
  close(): Promise<void>;
}

export interface InfraOptions {
  /** false only for benchmarks that measure what the limiter costs. */
  rateLimiting?: boolean;
  /** Sees every SQL query (tests count them). */
  onQuery?: (sql: string) => void;
  /** The safety sweeps' pace (tests of what a sweep does, rather than when, shorten its idle pause). */
  maintenance?: MaintenanceOptions;
  /** The engines ENGINES may name (the built-in catalogue unless given another). */
  catalogue?: Catalogue;
}

/** How long /readyz waits for each dependency's answer. */
const READY_CHECK_MS = 800;

function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export async function createInfra(config: Config, logger: Logger, options: InfraOptions = {}): Promise<Infra> {
  const catalogue = options.catalogue ?? builtInCatalogue;
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

  const redis = config.REDIS_URL ? createRedis(config.REDIS_URL, logger) : undefined;
  const limiters = createLimiterFactory(redis, config.REDIS_PREFIX);
  const slotTtlMs = config.RATE_LIMIT_SLOT_TTL_S * 1000;
  const requestLimits = { perMinute: config.RATE_LIMIT_PER_MINUTE, perHour: config.RATE_LIMIT_PER_HOUR, burst: config.RATE_LIMIT_BURST };
  const windows = requestWindows(requestLimits);
  const requestLimiter = options.rateLimiting === false
    ? unlimited
    : createRequestLimiter(redis ? redisCounts(redis, config.REDIS_PREFIX, windows, slotTtlMs, logger) : memoryCounts(windows, slotTtlMs), requestLimits);
  const prisma = db.prisma;
  const metrics = createMetrics({ prisma, redis });
  roundTrip = metrics.databaseRoundTrip;
  const invalidation = createInvalidationBus(redis && { url: config.REDIS_URL!, publisher: redis, prefix: config.REDIS_PREFIX, logger });
  // PGlite runs one statement at a time, on this thread: a second group in flight would only make
  // both smaller, and a group gathers for a few milliseconds so requests get parsed in between.
  const groups = {
    ...(db.kind === 'pglite' ? { maxConcurrent: 1, windowMs: 4 } : { maxConcurrent: 4, windowMs: 0 }),
    onStored: metrics.sendsAccepted,
  };
  const outbound = createOutboundHttp({ allowInsecure: config.WEBHOOK_ALLOW_INSECURE, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
  const eventStreams = createEventStreams({ config, db, logger, metrics, onQuery });
  const outbox = createOutbox(prisma, {
    jidDomainOf: catalogue.jidDomainOf,
    firstDelayMs: (config.WEBHOOK_RETRY_DELAYS[0] ?? 0) * 1000,
    streams: eventStreams.names,
    publicUrl: config.PUBLIC_URL,
  });
  const offered = await buildEngines(catalogue, { config, db, outbound, limiters, metrics, logger });
  const engines = offered.registry;
  const deliveries = createDeliveryWorker({
    prisma,
    schedule: redis ? redisSchedule(redis, config.REDIS_PREFIX, logger) : memorySchedule(),
    http: outbound,
    logger,
    onAttempt: metrics.webhookAttempt,
    options: {
      retryDelaysSeconds: config.WEBHOOK_RETRY_DELAYS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      perEndpoint: 32,
      total: 256,
      idlePollMs: 5000,
    },
  });
  const placement = createPlacement({
    // One process owns an embedded data folder, so its id can stay the same across restarts.
    node: config.NODE_ID ?? (db.kind === 'pglite' ? 'embedded' : `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`),
    leaseMs: config.NODE_LEASE_MS,
    sql: leaseStatements(db.statements, config.NODE_LEASE_MS),
    invalidation,
    redis: redis && { url: config.REDIS_URL!, publisher: redis, prefix: config.REDIS_PREFIX, logger },
    logger,
  });
  const liveFeed = createLiveFeed(redis && { url: config.REDIS_URL!, publisher: redis, prefix: config.REDIS_PREFIX, logger });
  outbox.onCommitted((events) => {
    liveFeed.publish(events.flatMap(liveEventsOf));
    eventStreams.committed(events[0]!.createdAt);
  });
  outbox.onDue((due) => void deliveries.scheduled(due).catch((error: unknown) => logger.error({ err: error }, 'scheduling webhook deliveries failed')));

  const ports: Ports = {
    clock: systemClock,
    tenants: createTenantStore(prisma, invalidation),
    setup: createSetupStore(prisma),
    apiKeys: createApiKeyStore(prisma, invalidation),
    sessions: createSessionStore(prisma),
    loginThrottle: createLoginThrottle(limiters, { perEmail: config.LOGIN_MAX_PER_EMAIL, perIp: config.LOGIN_MAX_PER_IP }),
    messages: createMessageStore(prisma, db.statements, outbox, groups),
    router: createMessageRouter(prisma, db.statements, invalidation),
    quota: createQuotaCounter(limiters),
    instances: createInstanceStore(prisma, outbox, invalidation, (change) => liveFeed.publish([{ kind: 'instance', ...change }])),
    qrImages: createQrImages(),
    engines,
    credentials: offered.credentials,
    ownership: placement.ownership,
    media: createMediaProbe(outbound, config.WEBHOOK_TIMEOUT_MS),
    webhookSender: createWebhookSender(outbound, config.WEBHOOK_TIMEOUT_MS),
    resolver: systemResolver,
    deliveryLog: createDeliveryLog(prisma, (due) => deliveries.scheduled(due)),
    requestUsage: (actor) => requestLimiter.minuteUsage(subjectOf(actor)),
    report: (error, context) => logger.error({ err: error }, context),
    warn: (message, context) => logger.warn(context, message),
    // A macrotask: the answer of the request that asked for it is written first.
    background: (work, what) =>
      void setImmediate(() => void work().catch((error: unknown) => logger.error({ err: error }, `${what} failed`))),
    workArrived: () => maintenance.wake(),
  };
  const retention = createRetention({
    statements: db.statements,
    settings: { messages: config.RETENTION_MESSAGES, deliveries: config.RETENTION_DELIVERIES, connections: config.RETENTION_CONNECTIONS },
    observer: { deleted: metrics.retentionDeleted, swept: metrics.retentionSwept },
    logger,
  });
  const maintenance = createMaintenance({
    statements: db.statements,
    sweepDeliveries: () => deliveries.sweep(),
    logger,
    options: options.maintenance,
    vacuum: db.kind === 'pglite' ? embeddedVacuum(db.statements, logger, (options.maintenance ?? MAINTENANCE).vacuumNapMs) : undefined,
  });

  return {
    config,
    logger,
    db,
    redis,
    limiters,
    requestLimiter,
    ports,
    engines,
    offered,
    get sandbox() {
      const runtime = offered.runtimes.get('sandbox');
      if (!runtime) throw new Error('ENGINES does not offer the sandbox');
      return runtime;
    },
    connectEngines: offered.connect,
    deliveries,
    maintenance,
    retention,
    liveFeed,
    metrics,
    placement,
    eventStreams,
    async checkReady() {
      // A load balancer needs an answer within its own timeout, even from a stalled dependency.
      try {
        await withinMs(db.ping(), READY_CHECK_MS);
      } catch {
        throw new Error('database unreachable');
      }
      // A broker down delays events (they wait in the outbox); it does not make the gateway unready.
      const nodes = { node: placement.node, nodes: await withinMs(placement.liveNodes(), READY_CHECK_MS), ...eventStreams.readiness() };
      if (!redis) return { database: 'ok', redis: 'not configured', ...nodes };
      try {
        await withinMs(redis.ping(), READY_CHECK_MS);
      } catch {
        throw new Error('redis unreachable');
      }
      return { database: 'ok', redis: 'ok', ...nodes };
    },
    async close() {
      await maintenance.stop();
      await retention.stop();
      await deliveries.stop();
      await eventStreams.stop();
      offered.stop();
      await outbound.close();
      await liveFeed.close();
      await invalidation.close();
      redis?.disconnect();
      await db.close();
    },
  };
}
