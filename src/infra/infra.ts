import type { Config } from '../config.js';
import { systemClock } from '../domain/ports.js';
import type { Ports } from '../domain/services.js';
import { type Database, openDatabase } from './db/database.js';
import { embeddedVacuum } from './db/embedded-vacuum.js';
import { applyMigrations } from './db/migrate.js';
import { createApiKeyStore } from './db/stores/api-key-store.js';
import { createMessageRouter } from './db/stores/message-router.js';
import { createMessageStore } from './db/stores/message-store.js';
import { createSessionStore } from './db/stores/session-store.js';
import { createTenantStore } from './db/stores/tenant-store.js';
import { createSetupStore } from './db/stores/setup-store.js';
import type { Logger } from './logger.js';
import { createLimiterFactory, type LimiterFactory } from './rate-limit/limiter-factory.js';
import { createLoginThrottle } from './rate-limit/login-throttle.js';
import { createQuotaCounter } from './rate-limit/quota-counter.js';
import { createInstanceStore } from './db/stores/instance-store.js';
import { createSandboxEngine, type SandboxNetwork } from './engines/sandbox.js';
import { createMediaProbe } from './media-probe.js';
import { createQrImages } from './qr-images.js';
import { createPhoneInbox, type PhoneInbox } from './engines/sandbox-inbox.js';
import { createWebhookSender } from './webhook-sender.js';
import { createOutboundHttp, systemResolver } from './outbound-http.js';
import { createOutbox } from './db/outbox.js';
import { createDeliveryLog } from './db/stores/delivery-log.js';
import { createDeliveryWorker, type DeliveryWorker } from './webhooks/delivery-worker.js';
import { memorySchedule, redisSchedule } from './webhooks/schedule.js';
import { memoryCounts, redisCounts } from './rate-limit/request-counts.js';
import { createRequestLimiter, type RequestLimiter, requestWindows, subjectOf, unlimited } from './rate-limit/request-limiter.js';
import { createRedis, type Redis } from './redis.js';
import { createLiveFeed } from './live-feed.js';
import { liveEventsOf, type LiveFeed } from '../domain/instances/live-events.js';
import { createInvalidationBus } from './cache/invalidation-bus.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createMaintenance, MAINTENANCE, type Maintenance, type MaintenanceOptions } from './maintenance.js';
import { createRetention, type Retention } from './db/retention.js';
import { createSandboxHandoffs } from './engines/sandbox-handoffs.js';
import { createSandboxDirectory } from './engines/sandbox-directory.js';
import { engineRegistry, jidDomainOf } from './engines/integrations.js';
import { createSandboxMedia } from './engines/sandbox-media.js';
import type { ChatEngine, EngineEvents, EngineRegistry } from '../domain/instances/engine.port.js';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.js';
import { openStateKey } from './engines/state-key.js';
import { createPlacement, type Placement } from './nodes/placement.js';
import { leaseStatements, type LiveNode } from './nodes/lease-statements.js';
import { hostname } from 'node:os';
import { createEventStreams, type EventStreams } from './events/event-streams.js';
import { randomBytes } from 'node:crypto';
import type { EngineCredentials } from '../domain/instances/instances.ports.js';
import { Unavailable } from '../domain/errors.js';
import { createCloudCredentialStore } from './engines/cloud/credentials.js';
import { createCloudEngine } from './engines/cloud/index.js';
import { createLastReceived } from './engines/cloud/last-received.js';
import { createCloudWebhookReceiver, type CloudWebhookReceiver } from './engines/cloud/webhook-receiver.js';

export interface Infra {
  config: Config;
  logger: Logger;
  db: Database;
  redis: Redis | undefined;
  limiters: LimiterFactory;
  requestLimiter: RequestLimiter;
  ports: Ports;
  /** The simulated chat network; its control API is served when ENGINES offers it. */
  sandbox: SandboxNetwork;
  /** The engines ENGINES offers. */
  engines: EngineRegistry;
  /** The network's webhooks for CHAT-CLOUD instances, when ENGINES offers it. */
  cloudWebhooks: CloudWebhookReceiver | undefined;
  /** Wires the engines to the domain's handlers, and to the owners of instances. */
  connectEngines(handlers: EngineEvents, owners: { tell: (instanceId: string) => void }): void;
  sandboxInbox: PhoneInbox;
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
  const sandboxInbox = createPhoneInbox(prisma);
  const sandbox = createSandboxEngine({
    handoffs: createSandboxHandoffs(db.statements),
    directory: createSandboxDirectory(prisma),
    media: createSandboxMedia(prisma),
    qr: { sessionTtlSeconds: config.QR_SESSION_TTL_S, v1TtlSeconds: config.QR_V1_TTL_S, attempts: config.QR_SESSION_ATTEMPTS },
    deliveryDelayMs: config.SANDBOX_DELIVERY_DELAY_MS,
    reconnectDelayMs: config.SANDBOX_RECONNECT_DELAY_MS,
    onRetry: (error) => logger.warn({ err: { message: (error as Error).message } }, 'sandbox report not stored yet; retrying'),
  });
  const outbound = createOutboundHttp({ allowInsecure: config.WEBHOOK_ALLOW_INSECURE, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
  const eventStreams = createEventStreams({ config, db, logger, metrics, onQuery });
  const outbox = createOutbox(prisma, {
    jidDomainOf,
    firstDelayMs: (config.WEBHOOK_RETRY_DELAYS[0] ?? 0) * 1000,
    streams: eventStreams.names,
    publicUrl: config.PUBLIC_URL,
  });
  const offered: ChatEngine[] = [];
  const realEngines: Array<{ connect(handlers: EngineEvents, owners: { tell: (instanceId: string) => void }): void; stop(): void }> = [];
  let credentials: EngineCredentials = noCredentials;
  let cloudWebhooks: CloudWebhookReceiver | undefined;
  let engineHandlers: EngineEvents | undefined;
  for (const name of config.ENGINES) {
    if (name === 'sandbox') offered.push(sandbox.engine);
    if (name === 'baileys') {
      const baileys = await loadBaileys(config, db, outbound, logger, metrics);
      metrics.watchEngine(baileys.engine.integration, () => baileys.counts());
      offered.push(baileys.engine);
      realEngines.push(baileys);
    }
    if (name === 'cloud') {
      const cipher = await openStateKey({ configured: config.ENGINE_STATE_KEY, embedded: db.kind === 'pglite', dataDir: config.DATA_DIR, statements: db.statements });
      const store = createCloudCredentialStore({ statements: db.statements, cipher });
      const cloud = createCloudEngine({
        credentials: store,
        api: { url: config.CLOUD_API_URL, version: config.CLOUD_API_VERSION, timeoutMs: config.CLOUD_API_TIMEOUT_MS },
        messagesPerSecond: config.CLOUD_MPS,
        lastReceived: createLastReceived(db.statements),
        logger,
        report: (error, what) => logger.error({ err: error }, `${what} failed`),
      });
      offered.push(cloud.engine);
      realEngines.push(cloud);
      credentials = store;
      cloudWebhooks = createCloudWebhookReceiver({
        credentials: store,
        events: () => {
          if (!engineHandlers) throw new Unavailable('The gateway is starting; try again.');
          return engineHandlers;
        },
        logger,
      });
    }
  }
  const engines = engineRegistry(offered);
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
    credentials,
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
    sandbox,
    engines,
    cloudWebhooks,
    connectEngines(handlers, owners) {
      engineHandlers = handlers;
      sandbox.connect(handlers, owners);
      for (const engine of realEngines) engine.connect(handlers, owners);
    },
    sandboxInbox,
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
      sandbox.stop();
      for (const engine of realEngines) engine.stop();
      await outbound.close();
      await liveFeed.close();
      await invalidation.close();
      redis?.disconnect();
      await db.close();
    },
  };
}

/** Credentials are only ever given to a credentials engine, which is offered whenever an instance can have one. */
const noCredentials: EngineCredentials = {
  save: () => Promise.reject(new Error('no credentials engine is offered')),
  replace: () => Promise.reject(new Error('no credentials engine is offered')),
};

/**
 * CHAT-BAILEYS, loaded only when offered: its state key checked against the database, its network
 * (the live one, or a local one by CHAT_NETWORK_*) and what it fetches media with.
 */
async function loadBaileys(config: Config, db: Database, outbound: ReturnType<typeof createOutboundHttp>, logger: Logger, metrics: Metrics) {
  const cipher = await openStateKey({ configured: config.ENGINE_STATE_KEY, embedded: db.kind === 'pglite', dataDir: config.DATA_DIR, statements: db.statements });
  let caPem: string | undefined;
  if (config.CHAT_NETWORK_CA_FILE) {
    try {
      caPem = readFileSync(config.CHAT_NETWORK_CA_FILE, 'utf8');
    } catch (error) {
      throw new ConfigError([`CHAT_NETWORK_CA_FILE: cannot be read (${(error as Error).message})`]);
    }
  }
  const [{ createBaileysEngine }, { createEngineStateStore }, { mediaFetcher }] = await Promise.all([
    import('./engines/baileys/index.js'),
    import('./engines/baileys/auth-state.js'),
    import('./engines/baileys/outbound.js'),
  ]);
  return createBaileysEngine({
    store: createEngineStateStore({ statements: db.statements, cipher, cacheBytes: 64 * 1024 * 1024 }),
    network: {
      url: config.CHAT_NETWORK_URL,
      rootKey: config.CHAT_NETWORK_ROOT_KEY ? Buffer.from(config.CHAT_NETWORK_ROOT_KEY, 'base64') : undefined,
      caPem,
      version: config.CHAT_WEB_VERSION,
      qrTimeoutMs: config.CHAT_QR_TIMEOUT_S === undefined ? undefined : config.CHAT_QR_TIMEOUT_S * 1000,
    },
    fetchMedia: mediaFetcher(outbound, config.WEBHOOK_TIMEOUT_MS),
    allowInsecureMedia: config.WEBHOOK_ALLOW_INSECURE,
    maxHandshakes: config.CHAT_HANDSHAKES_MAX,
    onReconnect: (reason) => metrics.engineReconnect('CHAT-BAILEYS', reason),
    async sentText(instanceId, networkMessageId) {
      const message = await db.prisma.message.findUnique({
        where: { instanceId_networkMessageId: { instanceId, networkMessageId } },
        select: { text: true, caption: true, direction: true },
      });
      return message?.direction === 'out' ? (message.text ?? message.caption) : null;
    },
    async pollOf(instanceId, networkMessageId) {
      const message = await db.prisma.message.findUnique({
        where: { instanceId_networkMessageId: { instanceId, networkMessageId } },
        select: { poll: true, pollSecret: true, direction: true },
      });
      if (message?.direction !== 'out' || !message.pollSecret || !message.poll) return null;
      const poll = message.poll as { options: Array<{ name: string }> };
      return { secret: Buffer.from(message.pollSecret), options: poll.options.map((option) => option.name) };
    },
    logger,
    report: (error, what) => logger.error({ err: error }, `${what} failed`),
  });
}
