import { newRowId } from './row-id.js';
import type { OutboxEvent } from '../../domain/instances/instances.ports.js';
import type { PrismaClient } from './database.js';
import type { Prisma } from './generated/client.js';
import { deliveryOf, type EventInstance, type EventRow, eventRows, orderKeyOf, type OutboxResult, outboxParams, storesEvent } from './outbox-statement.js';

export interface DueDelivery {
  id: string;
  at: Date;
}

/** An event as committed, for live subscribers. */
export interface CommittedEvent {
  tenantId: string;
  instanceId: string;
  event: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

export type EmitEvents = (owner: { tenantId: string; instanceId: string | null }, events: OutboxEvent[]) => Promise<void>;

export type Outbox = ReturnType<typeof createOutbox>;

/**
 * The transactional outbox: events something reads (`storesEvent`) and one webhook delivery per
 * subscribed event are rows of the change's own transaction, scheduled once it commits; with event streams,
 * each also keeps its body and the brokers still to publish it (docs/architecture.md, "Event streams").
 */
export function createOutbox(
  prisma: PrismaClient,
  options: {
    jidDomainOf: (engine: string) => string;
    firstDelayMs: number;
    /** The event streams (brokers) configured: each instance event is kept for them to publish. */
    streams?: readonly string[];
    /** The gateway's public address: media URLs in events are made absolute with it. */
    publicUrl?: string;
  },
) {
  let onDue: (due: DueDelivery[]) => void = () => {};
  let onCommitted: (events: CommittedEvent[]) => void = () => {};

  const streams = options.streams ?? [];

  async function write(
    tx: Prisma.TransactionClient,
    owner: { tenantId: string; instanceId: string | null },
    events: OutboxEvent[],
    committed: CommittedEvent[],
  ) {
    if (events.length === 0) return [];
    const now = new Date();
    const instance = owner.instanceId
      ? await tx.instance.findUnique({
          where: { id: owner.instanceId },
          select: { id: true, name: true, variant: true, engine: true, webhookUrl: true, webhookEvents: true, webhookFormat: true, phone: true },
        })
      : null;
    // An event of an instance gets the id and body its webhook carries when the webhook subscribes to
    // it or event streams are configured (`deliveryOf`): the delivery below and the brokers use them.
    const rows = events.map((e) => {
      const delivery = instance && deliveryOf(instance, e, now, options, streams.length > 0);
      return { id: newRowId(), tenantId: owner.tenantId, instanceId: owner.instanceId, event: e.event, data: e.data, createdAt: now, deliveryId: delivery?.deliveryId ?? null, payload: delivery?.payload ?? null, stored: storesEvent(e.event, delivery) };
    });
    const stored = rows.filter((row) => row.stored);
    if (stored.length) {
      await tx.outboxEvent.createMany({
        data: stored.map((row) => ({
          id: row.id,
          tenantId: row.tenantId,
          instanceId: row.instanceId,
          event: row.event,
          data: row.data as Prisma.InputJsonValue,
          createdAt: now,
          ...(streams.length && row.payload ? { deliveryId: row.deliveryId, payload: row.payload, streams: [...streams] } : {}),
        })),
      });
    }
    if (!instance) return [];
    for (const e of events) committed.push({ tenantId: owner.tenantId, instanceId: instance.id, event: e.event, data: e.data, createdAt: now });
    if (!instance.webhookUrl) return [];
    const wanted = rows.filter((row) => instance.webhookEvents.includes(row.event));
    if (wanted.length === 0) return [];
    const at = new Date(now.getTime() + options.firstDelayMs);
    await tx.webhookDelivery.createMany({
      data: wanted.map((row) => ({
        id: row.deliveryId!,
        instanceId: instance.id,
        eventId: row.id,
        event: row.event,
        url: instance.webhookUrl!,
        payload: row.payload!,
        orderKey: orderKeyOf(row.event, row.data),
        nextAttemptAt: at,
      })),
    });
    return wanted.map((row) => ({ id: row.deliveryId!, at }));
  }

  return {
    /**
     * Runs `work` in a transaction; once it commits, the deliveries of the events it emits are
     * scheduled and the events go to live subscribers.
     */
    async transaction<T>(work: (tx: Prisma.TransactionClient, emit: EmitEvents) => Promise<T>): Promise<T> {
      const due: DueDelivery[] = [];
      const committed: CommittedEvent[] = [];
      const result = await prisma.$transaction((tx) =>
        work(tx, async (owner, events) => void due.push(...(await write(tx, owner, events, committed)))),
      );
      if (due.length) onDue(due);
      if (committed.length) onCommitted(committed);
      return result;
    },
    /** Event rows for a statement that writes them with `outboxWrites` (the message path's batches). */
    rows: (tenantId: string, instance: EventInstance | null, subject: string, events: OutboxEvent[], now: Date): EventRow[] =>
      eventRows(tenantId, instance, subject, events, now, { ...options, streams }),
    /** The statement parameters of those rows (see `outboxWrites`). */
    params: (rows: EventRow[], now: Date) => outboxParams(rows, now, options.firstDelayMs),
    /** Once such a statement committed: its deliveries to the schedule, its events to live subscribers. */
    written(rows: EventRow[], result: OutboxResult) {
      if (result.deliveries.length) onDue(result.deliveries.map((d) => ({ id: d.id, at: new Date(d.at) })));
      const stored = new Set(result.eventIds);
      const committed: CommittedEvent[] = [];
      for (const row of rows) {
        if (!row.instanceId || !stored.has(row.id)) continue;
        committed.push({ tenantId: row.tenantId, instanceId: row.instanceId, event: row.event, data: row.data, createdAt: new Date(row.createdAt) });
      }
      if (committed.length) onCommitted(committed);
    },
    /** Where committed deliveries go (the delivery schedule). */
    onDue(listener: (due: DueDelivery[]) => void) {
      onDue = listener;
    },
    /** Where committed events go (the live subscription feed). */
    onCommitted(listener: (events: CommittedEvent[]) => void) {
      onCommitted = listener;
    },
  };
}
