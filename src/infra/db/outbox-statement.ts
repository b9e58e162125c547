import { HISTORY_EVENTS } from '../../domain/events/catalogue.js';
import { newRowId } from './row-id.js';
import type { OutboxEvent } from '../../domain/instances/instances.ports.js';
import { type EnvelopeInstance, webhookPayload } from '../../domain/events/envelopes.js';

/** What the outbox needs to know of the instance an event belongs to. */
export interface EventInstance extends EnvelopeInstance {
  /** Its integration: session envelopes name chats in that network's domain. */
  engine: string;
  webhookUrl: string | null;
  webhookEvents: string[];
}

/** One outbox event as a row of a multi-row statement, with the webhook delivery it may need. */
export interface EventRow {
  id: string;
  tenantId: string;
  instanceId: string | null;
  /** The row whose change the event reports: the event is written only if that change is. */
  subject: string;
  event: string;
  data: Record<string, unknown>;
  createdAt: string;
  /** The delivery's id and exact body, when the instance (as read) subscribes to the event or streams are configured. */
  deliveryId?: string;
  payload?: string;
  /** Its delivery leaves after the earlier deliveries with this key (`orderKeyOf`). */
  orderKey: string | null;
  /** The brokers to publish the event to, as a PostgreSQL array literal (`{amqp,nats}`), when streams are configured. */
  streams?: string;
  /** Whether the event gets a row (`storesEvent`); one that does not still reaches live subscribers. */
  stored: boolean;
}

/**
 * The key whose deliveries leave one after the other, in the order of their events: a message's
 * events (upsert, its updates, its delete) carry its id, so a receiver never hears of a status
 * before the message. The one place both outbox writers decide it.
 */
export function orderKeyOf(event: string, data: Record<string, unknown>): string | null {
  return event.startsWith('messages.') && typeof data.messageId === 'string' ? data.messageId : null;
}

/** Connection history is kept whatever reads it: the API shows only the last disconnect, these rows the ones before. */
const HISTORY = new Set<string>(HISTORY_EVENTS);

/**
 * Whether an event is written to the outbox: when a webhook delivery or a broker will read it, or it is
 * connection history. Any other would be a row nothing reads, saying what the message's own row says.
 */
export function storesEvent(event: string, delivery: { deliveryId: string } | null): boolean {
  return delivery !== null || HISTORY.has(event);
}

/**
 * The webhook delivery an instance event gets — its id and exact body — when a broker will publish it or
 * the instance's webhook subscribes to it (the delivery and the brokers carry the same id and bytes);
 * null otherwise. The one place both outbox writers decide it.
 */
export function deliveryOf(
  instance: EventInstance,
  event: OutboxEvent,
  now: Date,
  options: { jidDomainOf: (engine: string) => string; publicUrl?: string },
  streamed: boolean,
): { deliveryId: string; payload: string } | null {
  if (!streamed && !(instance.webhookUrl && instance.webhookEvents.includes(event.event))) return null;
  return { deliveryId: newRowId(), payload: webhookPayload(instance, event.event, event.data, now, options.jidDomainOf(instance.engine), options.publicUrl) };
}

/**
 * Rows for events written by one statement together with the change they report (the message path's
 * batches). Delivery bodies are built here, once; the statement itself decides, from the instance's
 * webhook settings at that moment, which deliveries are stored.
 */
export function eventRows(
  tenantId: string,
  instance: EventInstance | null,
  subject: string,
  events: OutboxEvent[],
  now: Date,
  options: { jidDomainOf: (engine: string) => string; streams: readonly string[]; publicUrl?: string },
): EventRow[] {
  const createdAt = now.toISOString();
  const streams = instance && options.streams.length ? `{${options.streams.join(',')}}` : undefined;
  return events.map((e) => {
    const delivery = instance && deliveryOf(instance, e, now, options, streams !== undefined);
    const row: EventRow = { id: newRowId(), tenantId, instanceId: instance?.id ?? null, subject, event: e.event, data: e.data, createdAt, orderKey: orderKeyOf(e.event, e.data), streams, stored: storesEvent(e.event, delivery) };
    return delivery ? { ...row, ...delivery } : row;
  });
}

/**
 * The parameters `outboxWrites` reads: the rows, sent as little JSON as they need (tenant and instance
 * come from the subject message in the database, the times once per statement), and when they happened.
 */
export function outboxParams(rows: EventRow[], now: Date, firstDelayMs: number): [string, string, string] {
  // `n`: the order the events happened in, which their `seq` keeps (deliveries of one key leave in it).
  const lean = rows.map(({ id, subject, event, data, deliveryId, payload, orderKey, streams, stored }, n) => ({ id, subject, event, data, deliveryId, payload, orderKey, streams, stored, n }));
  return [JSON.stringify(lean), now.toISOString(), new Date(now.getTime() + firstDelayMs).toISOString()];
}

/**
 * The CTEs that write the events of `outboxParams` (at `$param`..`$param+2`) whose subject is among the
 * ids `gate` returns, and their deliveries; the result can read `outbox_input (id)`, the events written,
 * and `outbox_deliveries (id, "nextAttemptAt")`.
 */
export function outboxWrites(param: number, gate: string): string {
  return `
  outbox_input AS (
    SELECT e.*, m."tenantId", m."instanceId"
    FROM jsonb_to_recordset($${param}::jsonb) AS e(id uuid, subject uuid, event text, data jsonb, "deliveryId" uuid, payload text, "orderKey" text, streams text[], stored boolean, n int)
    JOIN "Message" m ON m.id = e.subject
    WHERE e.subject IN (SELECT id FROM ${gate})
  ),
  outbox_events AS (
    INSERT INTO "OutboxEvent" (id, "tenantId", "instanceId", event, data, "createdAt", "deliveryId", payload, streams)
    SELECT id, "tenantId", "instanceId", event, data, $${param + 1}::timestamptz,
           CASE WHEN streams IS NULL THEN NULL ELSE "deliveryId" END, CASE WHEN streams IS NULL THEN NULL ELSE payload END,
           coalesce(streams, '{}')
    FROM outbox_input
    WHERE stored
    ORDER BY n
  ),
  outbox_deliveries AS (
    INSERT INTO "WebhookDelivery" (id, "instanceId", "eventId", event, url, payload, "orderKey", status, "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
    SELECT e."deliveryId", e."instanceId", e.id, e.event, i."webhookUrl", e.payload, e."orderKey", 'pending', 0,
           $${param + 2}::timestamptz, $${param + 1}::timestamptz, $${param + 1}::timestamptz
    FROM outbox_input e JOIN "Instance" i ON i.id = e."instanceId"
    WHERE e.payload IS NOT NULL AND i."webhookUrl" IS NOT NULL AND e.event = ANY(i."webhookEvents")
    RETURNING id, "nextAttemptAt"
  )`;
}

/** The statement's result columns: the events whose change was written, and the deliveries stored. */
export const OUTBOX_RESULT = `
  (SELECT coalesce(json_agg(id), '[]'::json) FROM outbox_input) AS "eventIds",
  (SELECT coalesce(json_agg(json_build_object('id', id, 'at', "nextAttemptAt")), '[]'::json) FROM outbox_deliveries) AS deliveries`;

export interface OutboxResult {
  eventIds: string[];
  deliveries: Array<{ id: string; at: string }>;
}
