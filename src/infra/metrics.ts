import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PrismaClient } from './db/database.js';
import { replaceEventLoopLagGauges } from './event-loop-lag.js';
import type { Redis } from './redis.js';

export type Metrics = ReturnType<typeof createMetrics>;

/** How long the kept media's totals are reused between scrapes. */
const MEDIA_TOTALS_MS = 5_000;

/** The tables that grow with traffic (docs/operating.md, "Data over time"). */
const GROWING_TABLES = ['Message', 'OutboxEvent', 'WebhookDelivery', 'WebhookAttempt', 'IdempotencyRecord', 'QrCode', 'SandboxMedia', 'SandboxHandoff', 'SandboxSignal', 'EngineKey', 'MediaBlob'];

/**
 * The gateway's Prometheus metrics (`GET /metrics`). Counters are kept as things happen; what the
 * database knows (messages by status, instances by state, the webhook backlog) is read when scraped.
 */
export function createMetrics(deps: { prisma: PrismaClient; redis: Redis | undefined }) {
  const registry = new Registry();
  // Process memory, CPU, event-loop lag, garbage collection, handles. prom-client's own lag sampler
  // is given a period so long it never wakes the process: the lag gauges are ours (event-loop-lag.ts).
  collectDefaultMetrics({ register: registry, prefix: 'mgw_', eventLoopMonitoringPrecision: 2 ** 31 - 1 });
  replaceEventLoopLagGauges(registry, 'mgw_');
  const registers = [registry];

  const requests = new Counter({
    name: 'mgw_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'mgw_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const limited = new Counter({
    name: 'mgw_rate_limited_total',
    help: 'Requests refused with 429, by limit: requests (minute/hour windows and in-flight burst), daily_quota, login.',
    labelNames: ['limit'] as const,
    registers,
  });
  const accepted = new Counter({ name: 'mgw_sends_accepted_total', help: 'Outbound messages accepted (stored as queued).', registers });
  const roundTrips = new Counter({
    name: 'mgw_database_round_trips_total',
    help: 'Round trips to the database (statements, BEGIN and COMMIT; the scrape of this endpoint included).',
    registers,
  });
  const attempts = new Counter({
    name: 'mgw_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome: delivered, retry (will be tried again), failed (out of attempts).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const published = new Counter({
    name: 'gateway_events_published_total',
    help: 'Events published to a broker and confirmed by it (RabbitMQ publisher confirm, JetStream ack), by broker.',
    labelNames: ['broker'] as const,
    registers,
  });
  const publishFailures = new Counter({
    name: 'gateway_events_publish_failures_total',
    help: 'Events a broker did not confirm in a batch (they stay in the outbox and are published again), by broker.',
    labelNames: ['broker'] as const,
    registers,
  });
  let eventStreams: Array<{ name: string; isUp: () => boolean; backlogAgeSeconds: () => number }> = [];
  new Gauge({
    name: 'gateway_events_backlog_age_seconds',
    help: 'How long the oldest event this node knows to be waiting for a broker has waited (0 when none), by broker.',
    labelNames: ['broker'] as const,
    registers,
    collect() {
      this.reset();
      for (const stream of eventStreams) this.set({ broker: stream.name }, stream.backlogAgeSeconds());
    },
  });
  new Gauge({
    name: 'gateway_events_broker_up',
    help: '1 while this node is connected to the broker (its exchange or stream declared), else 0, by broker.',
    labelNames: ['broker'] as const,
    registers,
    collect() {
      this.reset();
      for (const stream of eventStreams) this.set({ broker: stream.name }, stream.isUp() ? 1 : 0);
    },
  });
  const reconnects = new Counter({
    name: 'mgw_engine_reconnects_total',
    help: "Connections of a real engine that closed and are opened again, by engine and the close's reason.",
    labelNames: ['engine', 'reason'] as const,
    registers,
  });
  const engineCounts = new Map<string, () => { connected: number; connecting: number; waiting: number }>();
  new Gauge({
    name: 'mgw_engine_connections',
    help: "A real engine's connections on this node, by engine and state: connected, connecting (a handshake in flight), waiting (for a handshake slot).",
    labelNames: ['engine', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const [engine, counts] of engineCounts) for (const [state, value] of Object.entries(counts())) this.set({ engine, state }, value);
    },
  });
  let liveConnections = () => 0;
  let liveOperations = () => 0;
  new Gauge({ name: 'mgw_websocket_connections', help: 'Open GraphQL WebSocket connections.', registers, collect() { this.set(liveConnections()); } });
  new Gauge({ name: 'mgw_websocket_operations', help: 'GraphQL operations (mostly subscriptions) running over WebSockets.', registers, collect() { this.set(liveOperations()); } });
  new Gauge({
    name: 'mgw_redis_fallback',
    help: '1 while Redis is configured but not ready (limits are per node, events stay on this node).',
    registers,
    collect() {
      this.set(deps.redis && deps.redis.status !== 'ready' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'mgw_messages',
    help: 'Messages stored, by status.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of await deps.prisma.message.groupBy({ by: ['status'], _count: { _all: true } })) this.set({ status: row.status }, row._count._all);
    },
  });
  new Gauge({
    name: 'mgw_instances',
    help: 'Instances, by state.',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of await deps.prisma.instance.groupBy({ by: ['state'], _count: { _all: true } })) this.set({ state: row.state }, row._count._all);
    },
  });
  new Gauge({
    name: 'mgw_webhook_backlog',
    help: 'Webhook deliveries still pending.',
    registers,
    async collect() {
      this.set(await deps.prisma.webhookDelivery.count({ where: { status: 'pending' } }));
    },
  });

  const retentionDeleted = new Counter({
    name: 'mgw_retention_deleted_rows_total',
    help: 'Rows the retention sweeps deleted, by table (RETENTION_MESSAGES, RETENTION_DELIVERIES, RETENTION_CONNECTIONS; outbox events once read).',
    labelNames: ['table'] as const,
    registers,
  });
  // Kept media (docs/media.md): what the store holds, as its table of blobs says; read at most
  // once per MEDIA_TOTALS_MS however often it is scraped (a sum over every blob).
  let mediaStoreKind: string | undefined;
  let mediaTotals: { at: number; read: Promise<{ bytes: number; objects: number }> } | undefined;
  const readMediaTotals = () => {
    if (!mediaTotals || Date.now() - mediaTotals.at > MEDIA_TOTALS_MS) {
      const read = deps.prisma.$queryRaw<Array<{ bytes: number; objects: number }>>`
        SELECT COALESCE(SUM(size), 0)::float8 AS bytes, count(*)::int AS objects FROM "MediaBlob"`.then((rows) => rows[0] ?? { bytes: 0, objects: 0 });
      mediaTotals = { at: Date.now(), read };
      // A failed read is not kept: the next scrape asks again.
      read.catch(() => (mediaTotals = undefined));
    }
    return mediaTotals.read;
  };
  new Gauge({
    name: 'gateway_media_stored_bytes',
    help: 'Bytes of kept media in the media store (each distinct file once), by store: folder or s3.',
    labelNames: ['store'] as const,
    registers,
    async collect() {
      this.reset();
      if (mediaStoreKind) this.set({ store: mediaStoreKind }, (await readMediaTotals()).bytes);
    },
  });
  new Gauge({
    name: 'gateway_media_stored_objects',
    help: 'Objects (distinct files) of kept media in the media store, by store: folder or s3.',
    labelNames: ['store'] as const,
    registers,
    async collect() {
      this.reset();
      if (mediaStoreKind) this.set({ store: mediaStoreKind }, (await readMediaTotals()).objects);
    },
  });
  const mediaRemoved = new Counter({
    name: 'gateway_media_removed_objects_total',
    help: 'Objects the media sweep removed from the media store (no message held them any more), by store.',
    labelNames: ['store'] as const,
    registers,
  });
  const mediaReleased = new Counter({
    name: 'gateway_media_released_total',
    help: 'Messages that let their kept media go, by reason: retention (RETENTION_MEDIA) or deleted (for everyone).',
    labelNames: ['reason'] as const,
    registers,
  });
  const retentionLastRun = new Gauge({ name: 'mgw_retention_last_run_timestamp_seconds', help: 'When the last retention sweep of this node finished (Unix seconds).', registers });
  const retentionDuration = new Gauge({ name: 'mgw_retention_last_run_duration_seconds', help: 'How long the last retention sweep of this node took.', registers });
  new Gauge({
    name: 'mgw_table_rows_estimate',
    help: "Rows in the tables that grow with traffic, as the database's statistics estimate them (updated by (auto)vacuum and analyze).",
    labelNames: ['table'] as const,
    registers,
    async collect() {
      this.reset();
      const rows = await deps.prisma.$queryRaw<Array<{ table: string; rows: number }>>`
        SELECT relname AS table, GREATEST(reltuples, 0)::float8 AS rows FROM pg_class
        WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND relname = ANY(${GROWING_TABLES})`;
      for (const row of rows) this.set({ table: row.table }, row.rows);
    },
  });

  return {
    registry,
    retentionDeleted: (table: string, rows: number) => retentionDeleted.inc({ table }, rows),
    mediaReleased: (reason: 'retention' | 'deleted', messages: number) => mediaReleased.inc({ reason }, messages),
    mediaRemoved(objects: number) {
      mediaRemoved.inc({ store: mediaStoreKind ?? 'folder' }, objects);
      // The totals change at once, not at the next read.
      mediaTotals = undefined;
    },
    /** Which store the media gauges name (none when media is not kept). */
    watchMediaStore(kind: 'folder' | 's3') {
      mediaStoreKind = kind;
      mediaRemoved.inc({ store: kind }, 0);
    },
    retentionSwept(at: Date, seconds: number) {
      retentionLastRun.set(at.getTime() / 1000);
      retentionDuration.set(seconds);
    },
    request(method: string, route: string, status: number, seconds: number) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    rateLimited: (limit: 'requests' | 'daily_quota' | 'login') => limited.inc({ limit }),
    sendsAccepted: (count: number) => accepted.inc(count),
    databaseRoundTrip: () => roundTrips.inc(),
    webhookAttempt: (outcome: 'delivered' | 'retry' | 'failed') => attempts.inc({ outcome }),
    eventsPublished: (broker: string, count: number) => published.inc({ broker }, count),
    eventsFailed: (broker: string, count: number) => publishFailures.inc({ broker }, count),
    /** Where the event-stream gauges read from. */
    watchEventStreams(streams: typeof eventStreams) {
      eventStreams = streams;
      // Zero from the start, so a rate or an alert on them has a series before the first event.
      for (const stream of streams) {
        published.inc({ broker: stream.name }, 0);
        publishFailures.inc({ broker: stream.name }, 0);
      }
    },
    engineReconnect: (engine: string, reason: string) => reconnects.inc({ engine, reason }),
    /** Where an engine's connection gauge reads from. */
    watchEngine(engine: string, counts: () => { connected: number; connecting: number; waiting: number }) {
      engineCounts.set(engine, counts);
    },
    /** Where the WebSocket gauges read from, once the WebSocket server exists. */
    watchWebSockets(connections: () => number, operations: () => number) {
      liveConnections = connections;
      liveOperations = operations;
    },
  };
}
