import type { OutboxEvent } from '../../domain/instances/instances.ports.js';
import { webhookPayload } from '../../domain/webhooks/envelopes.js';
import type { PrismaClient } from './database.js';
import type { Prisma } from './generated/client.js';
import { type EventInstance, type EventRow, eventRows, type OutboxResult, outboxParams } from './outbox-statement.js';

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
 * The transactional outbox. Events are rows written in the same transaction as the change they
 * report, and so is one webhook delivery per event the instance subscribes to, with its exact body.
 * Once the transaction commits, the new deliveries are handed to the schedule.
 */
export function createOutbox(prisma: PrismaClient, options: { jidDomainOf: (engine: string) => string; firstDelayMs: number; publicUrl?: string }) {
  let onDue: (due: DueDelivery[]) => void = () => {};
  let onCommitted: (events: CommittedEvent[]) => void = () => {};

  async function write(
    tx: Prisma.TransactionClient,
    owner: { tenantId: string; instanceId: string | null },
    events: OutboxEvent[],
    committed: CommittedEvent[],
  ) {
    if (events.length === 0) return [];
    const now = new Date();
    const rows = await tx.outboxEvent.createManyAndReturn({
      data: events.map((e) => ({ tenantId: owner.tenantId, instanceId: owner.instanceId, event: e.event, data: e.data as Prisma.InputJsonValue, createdAt: now })),
      select: { id: true, event: true, data: true },
    });
    if (!owner.instanceId) return [];
    for (const e of events) committed.push({ tenantId: owner.tenantId, instanceId: owner.instanceId, event: e.event, data: e.data, createdAt: now });
    const instance = await tx.instance.findUnique({
      where: { id: owner.instanceId },
      select: { id: true, name: true, variant: true, engine: true, webhookUrl: true, webhookEvents: true },
    });
    if (!instance?.webhookUrl) return [];
    const wanted = rows.filter((row) => instance.webhookEvents.includes(row.event));
    if (wanted.length === 0) return [];
    const at = new Date(now.getTime() + options.firstDelayMs);
    const deliveries = await tx.webhookDelivery.createManyAndReturn({
      data: wanted.map((row) => ({
        instanceId: instance.id,
        eventId: row.id,
        event: row.event,
        url: instance.webhookUrl!,
        payload: webhookPayload(instance, row.event, row.data as Record<string, unknown>, now, options.jidDomainOf(instance.engine), options.publicUrl),
        nextAttemptAt: at,
      })),
      select: { id: true },
    });
    return deliveries.map((d) => ({ id: d.id, at }));
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
      eventRows(tenantId, instance, subject, events, now, options),
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
