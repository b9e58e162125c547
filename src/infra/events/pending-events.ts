import type { SigningSecrets } from '../../domain/webhooks/signature.js';
import type { Database } from '../db/database.js';
import type { BrokerName } from './broker.js';

/** An outbox event a broker has yet to publish, with what signs it. */
export interface PendingEvent {
  id: string;
  tenantId: string;
  instanceId: string;
  event: string;
  deliveryId: string;
  payload: string;
  createdAt: Date;
  secrets: SigningSecrets;
}

// The partial index holds only events some broker still has to publish, in commit order.
const READ = `
SELECT e.id, e."tenantId", e."instanceId", e.event, e."deliveryId", e.payload, e."createdAt",
       i."webhookSecret", i."previousWebhookSecret", i."webhookSecretRotatedAt"
FROM "OutboxEvent" e JOIN "Instance" i ON i.id = e."instanceId"
WHERE e.streams <> '{}' AND $1 = ANY(e.streams)
ORDER BY e.seq
LIMIT $2`;

/** Is anything waiting for this broker (one index probe; most looks of an idle or a second node end here). */
const ANY = `SELECT EXISTS (SELECT 1 FROM "OutboxEvent" WHERE streams <> '{}' AND $1 = ANY(streams)) AS waiting`;

/** When the first event still waiting for this broker was written (the backlog's age after a restart). */
const OLDEST = `SELECT "createdAt" FROM "OutboxEvent" WHERE streams <> '{}' AND $1 = ANY(streams) ORDER BY seq LIMIT 1`;

const MARK = `UPDATE "OutboxEvent" SET streams = array_remove(streams, $1) WHERE id = ANY($2::uuid[])`;

/** One publisher per broker at a time across the nodes: a transaction-scoped lock, gone with its connection if the node dies. */
const LOCK = `SELECT pg_try_advisory_xact_lock(hashtext('mgw.event-streams.' || $1)::bigint) AS locked`;

interface Row {
  id: string;
  tenantId: string;
  instanceId: string;
  event: string;
  deliveryId: string;
  payload: string;
  createdAt: Date;
  webhookSecret: string;
  previousWebhookSecret: string | null;
  webhookSecretRotatedAt: Date | null;
}

export type PublishBatch = (events: PendingEvent[]) => Promise<number>;

/** What happened to one batch: another node holds the broker's lock, or how many were read and published. */
export type BatchOutcome = { locked: true } | { locked: false; read: number; published: number };

export type PendingEvents = ReturnType<typeof pendingEvents>;

/**
 * The outbox as a broker's queue. A batch is read in commit order, published, and marked published
 * (only those the broker confirmed, a prefix) in one step. On PostgreSQL the step holds a lock per
 * broker in a transaction, so of several nodes exactly one publishes at a time and an instance's
 * events leave in order; a node that dies mid-batch loses its lock with its connection and the
 * batch (not marked) is published again by the next one. PGlite is one process: no lock needed.
 */
export function pendingEvents(db: Database) {
  const toEvent = (row: Row): PendingEvent => ({
    id: row.id,
    tenantId: row.tenantId,
    instanceId: row.instanceId,
    event: row.event,
    deliveryId: row.deliveryId,
    payload: row.payload,
    createdAt: new Date(row.createdAt),
    secrets: { webhookSecret: row.webhookSecret, previousWebhookSecret: row.previousWebhookSecret, webhookSecretRotatedAt: row.webhookSecretRotatedAt && new Date(row.webhookSecretRotatedAt) },
  });

  return {
    async oldest(broker: BrokerName): Promise<Date | null> {
      const [row] = await db.statements.run<{ createdAt: Date }>(OLDEST, [broker]);
      return row ? new Date(row.createdAt) : null;
    },
    async batch(broker: BrokerName, limit: number, publish: PublishBatch): Promise<BatchOutcome> {
      if (db.kind === 'pglite') {
        const events = (await db.statements.run<Row>(READ, [broker, limit])).map(toEvent);
        const published = events.length ? await publish(events) : 0;
        if (published) await db.statements.run(MARK, [broker, events.slice(0, published).map((e) => e.id)]);
        return { locked: false, read: events.length, published };
      }
      const [any] = await db.statements.run<{ waiting: boolean }>(ANY, [broker]);
      if (!any?.waiting) return { locked: false, read: 0, published: 0 };
      return db.prisma.$transaction(
        async (tx) => {
          const [lock] = await tx.$queryRawUnsafe<Array<{ locked: boolean }>>(LOCK, broker);
          if (!lock?.locked) return { locked: true } as const;
          const events = (await tx.$queryRawUnsafe<Row[]>(READ, broker, limit)).map(toEvent);
          const published = events.length ? await publish(events) : 0;
          if (published) await tx.$executeRawUnsafe(MARK, broker, events.slice(0, published).map((e) => e.id));
          return { locked: false, read: events.length, published } as const;
        },
        { maxWait: 5000, timeout: 20_000 },
      );
    },
  };
}
