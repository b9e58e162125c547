import type { Config } from '../config.js';
import type { EmbeddedFolder } from '../infra/db/embedded-folder.js';
import type { EngineEvents, EngineRegistry } from '../domain/network/engine.port.js';
import type { LiveFeed } from '../domain/network/live-events.js';
import type { Ports, Services } from '../domain/services.js';
import { type Catalogue, catalogue as builtInCatalogue } from '../engines/catalogue.js';
import type { EngineRuntime, Owners } from '../engines/descriptor.js';
import type { Database } from '../infra/db/database.js';
import { embeddedVacuum } from '../infra/db/embedded-vacuum.js';
import { createRetention, type Retention } from '../infra/db/retention.js';
import { createMediaSweep } from '../infra/media/media-sweep.js';
import type { EventStreams } from '../infra/events/event-streams.js';
import type { Logger } from '../infra/logger.js';
import { createMaintenance, MAINTENANCE, type Maintenance, type MaintenanceOptions } from '../infra/maintenance.js';
import type { Metrics } from '../infra/metrics.js';
import type { Placement } from '../infra/nodes/placement.js';
import type { LimiterFactory } from '../infra/rate-limit/limiter-factory.js';
import type { RequestLimiter } from '../infra/rate-limit/request-limiter.js';
import type { Redis } from '../infra/redis.js';
import type { DeliveryWorker } from '../infra/webhooks/delivery-worker.js';
import { wireDelivery } from './delivery.js';
import { buildEngines, type OfferedEngines } from './engines.js';
import { type Readiness, readinessCheck, shutdownSequence } from './lifecycle.js';
import { domainPorts } from './ports.js';
import { openStorage } from './storage.js';
import type { InvalidationBus } from '../infra/cache/invalidation-bus.js';
import type { MediaStore } from '../domain/media/media-store.port.js';

/**
 * The composition root below the HTTP app: storage (storage.ts), what goes out (delivery.ts), the
 * offered engines (engines.ts), the domain's ports (ports.ts), readiness and the shutdown order
 * (lifecycle.ts). docs/architecture.md draws the layers.
 */

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
  /** The offered engines as built: their routes, their integrations, and each runtime by name. */
  offered: OfferedEngines;
  /** The simulated network as built, for suites that drive its engine directly; only when ENGINES offers it. */
  readonly sandbox: EngineRuntime;
  /** Wires the engines to the domain's handlers, and to the owners of instances. */
  connectEngines(handlers: EngineEvents, owners: Owners): void;
  /** Wires the engines to the services: their reports to the domain, their calls for an owner to placement. */
  connect(services: Services): void;
  /** Once the gateway serves: takes instances, resumes what waits, starts deliveries, brokers and sweeps. */
  start(services: Services): Promise<void>;
  /** Stops the sweeps (the first step of a shutdown). */
  stopSweeps(): Promise<void>;
  /** Hands the instances back: nothing new is dispatched, what is in progress finishes, then the leases go. */
  handBack(services: Services): Promise<void>;
  /** Sends webhook deliveries; started by the gateway once it serves. */
  deliveries: DeliveryWorker;
  /** The safety sweeps; started by the gateway once it serves, with the domain's sweeps over queued messages. */
  maintenance: Maintenance;
  retention: Retention;
  /** QR and connection events for GraphQL subscriptions. */
  liveFeed: LiveFeed;
  /** What changed, told to every node: caches drop it, and callers that lost access lose their streams. */
  invalidation: InvalidationBus;
  metrics: Metrics;
  /** Where media is kept (MEDIA_STORE), or null when it is not (docs/media.md). */
  mediaStore: MediaStore | null;
  /** This node's place among the nodes sharing the database: which instances it owns. */
  placement: Placement;
  /** The brokers configured (EVENTS_*); started by the gateway once it serves. */
  eventStreams: EventStreams;
  /** Every dependency the gateway needs to serve (throws naming the one that is not), and the live nodes. */
  checkReady(): Promise<Readiness>;
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
  /** The embedded database's folder, opened early by `main` (docs/benchmarks.md, "Start"). */
  embedded?: EmbeddedFolder;
}

export async function createInfra(config: Config, logger: Logger, options: InfraOptions = {}): Promise<Infra> {
  const catalogue = options.catalogue ?? builtInCatalogue;
  const storage = await openStorage(config, logger, options);
  const { db, redis, limiters, requestLimiter, metrics, outbound } = storage;
  const delivery = wireDelivery(config, logger, storage, catalogue.jidDomainOf);
  const { deliveries, placement, liveFeed, eventStreams } = delivery;
  const offered = await buildEngines(catalogue, { config, db, outbound, limiters, metrics, logger });
  const ports = domainPorts(config, logger, storage, delivery, offered, () => maintenance.wake());
  const mediaStore = storage.mediaStore;
  if (mediaStore) metrics.watchMediaStore(mediaStore.kind);
  const retention = createRetention({
    statements: db.statements,
    settings: {
      messages: config.RETENTION_MESSAGES,
      deliveries: config.RETENTION_DELIVERIES,
      connections: config.RETENTION_CONNECTIONS,
      // Unset: as long as the messages (docs/configuration.md).
      ...(config.RETENTION_MEDIA !== undefined ? { media: config.RETENTION_MEDIA } : {}),
    },
    observer: { deleted: metrics.retentionDeleted, swept: metrics.retentionSwept, released: metrics.mediaReleased },
    logger,
    // With no store (MEDIA_STORE=off) nothing is kept, so nothing is removed: rows stay for a store that comes back.
    afterPass: mediaStore ? createMediaSweep({ statements: db.statements, store: mediaStore, observer: { removed: metrics.mediaRemoved }, logger }) : undefined,
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
    engines: offered.registry,
    offered,
    get sandbox() {
      const runtime = offered.runtimes.get('sandbox');
      if (!runtime) throw new Error('ENGINES does not offer the sandbox');
      return runtime;
    },
    connectEngines: offered.connect,
    connect(services) {
      offered.connect(services.engineEvents, { tell: (instanceId) => placement.ownership.notify(instanceId, 'sync') });
    },
    async start(services) {
      await placement.start(services.ownerDuties);
      await services.resume();
      await deliveries.start();
      eventStreams.start();
      maintenance.start(() => services.tick(), () => services.mediaKeeper.sweep());
      retention.start();
    },
    async stopSweeps() {
      await maintenance.stop();
      await retention.stop();
    },
    async handBack(services) {
      await placement.stop();
      await services.dispatcher.idle();
      // Media being kept finishes before the store closes; what waits stays pending for the next start.
      await services.mediaKeeper.stop();
      await placement.release();
    },
    deliveries,
    maintenance,
    retention,
    liveFeed,
    invalidation: storage.invalidation,
    metrics,
    mediaStore: storage.mediaStore,
    placement,
    eventStreams,
    checkReady: readinessCheck(storage, delivery),
    close: shutdownSequence({ storage, delivery, engines: offered, maintenance, retention }),
  };
}
