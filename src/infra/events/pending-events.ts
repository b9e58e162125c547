import type { SigningSecrets } from '../../domain/webhooks/signature.js';
import type { Database } from '../db/database.js';
import type { Statements } from '../db/statements.js';
import type { BrokerName } from './broker.js';

/** An outbox event some broker has yet to publish, with what signs it. */
export interface PendingEvent {
  id: string;
  tenantId: string;
  instanceId: string;
  event: string;
  deliveryId: string;
  payload: string;
  createdAt: Date;
  secrets: SigningSecrets;
  /** The brokers still to publish it. */
  streams: BrokerName[];
}

// The partial index holds only events some broker still has to publish, in commit order. An event of a
// deleted instance is signed with the secrets kept on it at the delete (instance-delete.ts).
const READ = `
SELECT e.id, e."tenantId", e."instanceId", e.event, e."deliveryId", e.payload, e."createdAt", e.streams,
       CASE WHEN i.id IS NULL THEN e.signing->>'current' ELSE i."webhookSecret" END AS "webhookSecret",
       CASE WHEN i.id IS NULL THEN e.signing->>'previous' ELSE i."previousWebhookSecret" END AS "previousWebhookSecret",
       CASE WHEN i.id IS NULL THEN (e.signing->>'rotatedAt')::timestamptz ELSE i."webhookSecretRotatedAt" END AS "webhookSecretRotatedAt"
FROM "OutboxEvent" e LEFT JOIN "Instance" i ON i.id = e."instanceId"
WHERE e.streams <> '{}' AND e.streams && $1::text[] AND (i.id IS NOT NULL OR e.signing IS NOT NULL)
ORDER BY e.seq
LIMIT $2`;

/** Is anything waiting for these brokers (one index probe; most looks of an idle or a second node end here). */
const ANY = `SELECT EXISTS (SELECT 1 FROM "OutboxEvent" WHERE streams <> '{}' AND streams && $1::text[]) AS waiting`;

/** When the first event still waiting for this broker was written (the backlog's age after a restart). */
const OLDEST = `SELECT "createdAt" FROM "OutboxEvent" WHERE streams <> '{}' AND $1 = ANY(streams) ORDER BY seq LIMIT 1`;

/** Each event keeps the brokers that have not confirmed it yet ('' → '{}': published everywhere). */
const MARK = `
UPDATE "OutboxEvent" e SET streams = string_to_array(u.rest, ',')
FROM unnest($1::uuid[], $2::text[]) AS u(id, rest)
WHERE e.id = u.id`;

/**
 * The brokers this node may publish to now: one lock per broker, transaction-scoped, gone with its
 * connection if the node dies. Tried, never waited for, so two nodes cannot deadlock on them.
 */
const LOCK = `SELECT b AS broker FROM unnest($1::text[]) AS b WHERE pg_try_advisory_xact_lock(hashtext('mgw.event-streams.' || b)::bigint)`;

interface Row {
  id: string;
  tenantId: string;
  instanceId: string;
  event: string;
  deliveryId: string;
  payload: string;
  createdAt: Date;
  streams: BrokerName[];
  webhookSecret: string;
  previousWebhookSecret: string | null;
  webhookSecretRotatedAt: Date | null;
}

/**
 * Publishes a batch to the brokers named, each getting the events that list it, in order; resolves
 * with how many of each broker's own events it confirmed (a prefix).
 */
export type PublishBatch = (events: PendingEvent[], brokers: readonly BrokerName[]) => Promise<Map<BrokerName, number>>;

/** What happened to one batch: brokers another node publishes to now, events read, and each broker's events and confirms. */
export interface BatchOutcome {
  contended: BrokerName[];
  read: number;
  brokers: Map<BrokerName, { events: number; published: number }>;
}

export type PendingEvents = ReturnType<typeof pendingEvents>;

/** Each broker's outcome when it was given nothing. */
const untouched = (brokers: readonly BrokerName[]): BatchOutcome['brokers'] => new Map(brokers.map((b) => [b, { events: 0, published: 0 }]));

/**
 * The outbox as the brokers' queue: a batch read once in commit order, published, and each broker's
 * confirmed prefix marked in one statement. On PostgreSQL a lock per broker lets one node publish to it at
 * a time; PGlite needs no lock nor transaction (docs/architecture.md, "Event streams").
 */
export function pendingEvents(db: Pick<Database, 'kind' | 'statements'>) {
  const toEvent = (row: Row): PendingEvent => ({
    id: row.id,
    tenantId: row.tenantId,
    instanceId: row.instanceId,
    event: row.event,
    deliveryId: row.deliveryId,
    payload: row.payload,
    createdAt: new Date(row.createdAt),
    secrets: { webhookSecret: row.webhookSecret, previousWebhookSecret: row.previousWebhookSecret, webhookSecretRotatedAt: row.webhookSecretRotatedAt && new Date(row.webhookSecretRotatedAt) },
    streams: row.streams,
  });

  async function step(run: Statements['run'], brokers: readonly BrokerName[], limit: number, publish: PublishBatch): Promise<Omit<BatchOutcome, 'contended'>> {
    const events = (await run<Row>(READ, [brokers, limit])).map(toEvent);
    const outcome = { read: events.length, brokers: untouched(brokers) };
    if (events.length === 0) return outcome;
    const confirmed = await publish(events, brokers);
    const done = new Map<string, Set<BrokerName>>();
    for (const broker of brokers) {
      let seen = 0;
      const published = confirmed.get(broker) ?? 0;
      for (const event of events) {
        if (!event.streams.includes(broker)) continue;
        if (seen++ < published) (done.get(event.id) ?? done.set(event.id, new Set()).get(event.id)!).add(broker);
      }
      outcome.brokers.set(broker, { events: seen, published });
    }
    if (done.size > 0) {
      const ids: string[] = [];
      const rest: string[] = [];
      for (const event of events) {
        const by = done.get(event.id);
        if (!by) continue;
        ids.push(event.id);
        rest.push(event.streams.filter((s) => !by.has(s)).join(','));
      }
      await run(MARK, [ids, rest]);
    }
    return outcome;
  }

  return {
    async oldest(broker: BrokerName): Promise<Date | null> {
      const [row] = await db.statements.run<{ createdAt: Date }>(OLDEST, [broker]);
      return row ? new Date(row.createdAt) : null;
    },
    async batch(brokers: readonly BrokerName[], limit: number, publish: PublishBatch): Promise<BatchOutcome> {
      if (db.kind === 'pglite') return { contended: [], ...(await step(db.statements.run, brokers, limit, publish)) };
      const [any] = await db.statements.run<{ waiting: boolean }>(ANY, [brokers]);
      if (!any?.waiting) return { contended: [], read: 0, brokers: untouched(brokers) };
      return db.statements.transaction(async (run) => {
        const locked = (await run<{ broker: BrokerName }>(LOCK, [brokers])).map((row) => row.broker);
        const contended = brokers.filter((b) => !locked.includes(b));
        if (locked.length === 0) return { contended, read: 0, brokers: new Map() };
        return { contended, ...(await step(run, locked, limit, publish)) };
      });
    },
  };
}
