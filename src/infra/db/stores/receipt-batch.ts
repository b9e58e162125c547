import type { MessageRecord, MessageStatus, OutboxEventInput } from '../../../domain/messages/messages.ports.js';
import { withReport } from '../../../domain/messages/message-status.js';
import type { MessageError } from '../../../domain/messages/message-error.js';
import { Unavailable } from '../../../domain/errors.js';
import { groupCommit, type Outcome } from '../group-commit.js';
import type { Outbox } from '../outbox.js';
import { type EventInstance, type EventRow, OUTBOX_RESULT, type OutboxResult, outboxWrites } from '../outbox-statement.js';
import { isUuid } from '../prisma-errors.js';
import { type Statements, withoutNulls } from '../statements.js';

/** Which message a report is about: the gateway's id, or the network's id within an instance. */
type MessageRef = { id: string } | { instanceId: string; networkMessageId: string };

interface Report {
  ref: MessageRef;
  status: 'delivered' | 'read' | 'failed';
  at: Date;
  events: (message: MessageRecord, before: MessageRecord) => OutboxEventInput[];
  error: MessageError | undefined;
}

/*
 * The reports' messages by their own ids ($1) and by the network's ids within an instance ($2), each one
 * unique-index lookup: the subqueries with LIMIT are not flattened into a join, so however stale the
 * planner's size estimate, this never reads the whole table.
 */
const READ = `
WITH wanted AS (
  SELECT found.id FROM jsonb_array_elements_text($1::jsonb) AS v(id)
  CROSS JOIN LATERAL (SELECT m.id FROM "Message" m WHERE m.id = v.id::uuid LIMIT 1) found
  UNION
  SELECT found.id FROM jsonb_to_recordset($2::jsonb) AS r("instanceId" uuid, "networkMessageId" text)
  CROSS JOIN LATERAL (
    SELECT m.id FROM "Message" m WHERE m."instanceId" = r."instanceId" AND m."networkMessageId" = r."networkMessageId" LIMIT 1
  ) found
)
SELECT m.*, i.name AS "i_name", i.variant AS "i_variant", i.engine AS "i_engine", i."webhookUrl" AS "i_webhookUrl", i."webhookEvents" AS "i_webhookEvents", i."webhookFormat" AS "i_webhookFormat", i.phone AS "i_phone"
FROM wanted w
CROSS JOIN LATERAL (SELECT * FROM "Message" m WHERE m.id = w.id LIMIT 1) m
LEFT JOIN "Instance" i ON i.id = m."instanceId"`;

/**
 * Writes each message's new status only if the fields it was computed from are still what was read
 * (compare and set), with the events of the messages it wrote. A message changed meanwhile by someone
 * else is read and computed again; statuses never move backwards.
 */
const WRITE = `
WITH status_input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
    id uuid, status text, "deliveredAt" timestamptz, "readAt" timestamptz, "failedAt" timestamptz, error jsonb,
    "updatedAt" timestamptz, "wasStatus" text, "wasDeliveredAt" timestamptz, "wasReadAt" timestamptz,
    "wasFailedAt" timestamptz, "wasError" jsonb)
),
moved AS (
  UPDATE "Message" m
  SET status = s.status::"MessageStatus", "deliveredAt" = s."deliveredAt", "readAt" = s."readAt",
      "failedAt" = s."failedAt", error = s.error, "updatedAt" = s."updatedAt"
  FROM status_input s
  WHERE m.id = ANY(ARRAY(SELECT id FROM status_input)) AND m.id = s.id AND m.status::text = s."wasStatus"
    AND m."deliveredAt" IS NOT DISTINCT FROM s."wasDeliveredAt" AND m."readAt" IS NOT DISTINCT FROM s."wasReadAt"
    AND m."failedAt" IS NOT DISTINCT FROM s."wasFailedAt" AND m.error IS NOT DISTINCT FROM s."wasError"
  RETURNING m.id
),
${outboxWrites(2, 'moved')}
SELECT (SELECT coalesce(json_agg(id), '[]'::json) FROM moved) AS moved, ${OUTBOX_RESULT}`;

type ReadRow = MessageRecord & {
  i_name: string | null;
  i_variant: EventInstance['variant'] | null;
  i_engine: string | null;
  i_webhookUrl: string | null;
  i_webhookEvents: string[] | null;
  i_webhookFormat: string | null;
  i_phone: string | null;
};

const networkKey = (instanceId: string, networkMessageId: string) => `${instanceId}/${networkMessageId}`;

/** After this many rounds of finding a message changed by someone else, its reports fail. */
const MAX_ROUNDS = 5;

/**
 * Receipts (delivered, read, failed) are written in groups: one read and one write for all the
 * receipts that arrive together, each with its own answer.
 */
export function receiptBatches(statements: Statements, outbox: Outbox, options: { maxConcurrent: number; windowMs: number }) {
  async function round(pending: Array<{ report: Report; n: number }>, outcomes: Array<Outcome<MessageRecord | null>>) {
    const byIds = pending.flatMap(({ report }) => ('id' in report.ref ? [report.ref.id] : []));
    const byNetwork = pending.flatMap(({ report }) => ('networkMessageId' in report.ref ? [report.ref] : []));
    const rows = await statements.run<ReadRow>(READ, [JSON.stringify([...new Set(byIds)]), JSON.stringify(byNetwork)]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const byNetworkId = new Map(rows.flatMap((row) => (row.instanceId && row.networkMessageId ? [[networkKey(row.instanceId, row.networkMessageId), row.id]] : [])));
    // Every report by the message's own id, from here on; one the database does not know has no message.
    const reports: Array<{ report: Report & { id: string }; n: number }> = [];
    for (const { report, n } of pending) {
      const id = 'id' in report.ref ? report.ref.id : byNetworkId.get(networkKey(report.ref.instanceId, report.ref.networkMessageId));
      if (id === undefined) outcomes[n] = { ok: null };
      else reports.push({ report: { ...report, id }, n });
    }
    // Each message's reports, in the order they arrived (a group holds up to 500: no scan per message).
    const byMessage = new Map<string, typeof reports>();
    for (const entry of reports) {
      const mine = byMessage.get(entry.report.id);
      if (mine) mine.push(entry);
      else byMessage.set(entry.report.id, [entry]);
    }
    const now = new Date();
    const writes: Array<Record<string, unknown>> = [];
    const events: EventRow[] = [];
    const results = new Map<string, Array<{ n: number; message: MessageRecord }>>();
    for (const [id, mine] of byMessage) {
      const row = byId.get(id);
      if (!row) {
        for (const { n } of mine) outcomes[n] = { ok: null };
        continue;
      }
      const { i_name, i_variant, i_engine, i_webhookUrl, i_webhookEvents, i_webhookFormat, i_phone, ...was } = row;
      const instance: EventInstance | null =
        was.instanceId && i_name && i_variant && i_engine
          ? { id: was.instanceId, name: i_name, variant: i_variant, engine: i_engine, webhookUrl: i_webhookUrl, webhookEvents: i_webhookEvents ?? [], webhookFormat: i_webhookFormat ?? 'gateway', phone: i_phone }
          : null;
      // Reports of one message in one group apply in the order they arrived, each with its events.
      let message: MessageRecord = was;
      const steps: Array<{ n: number; message: MessageRecord }> = [];
      for (const { report, n } of mine) {
        const before = message;
        message = withReport(message, report.status, report.at, report.error);
        steps.push({ n, message });
        events.push(...outbox.rows(was.tenantId, instance, id, report.events(message, before), now));
      }
      results.set(id, steps);
      writes.push({
        id,
        status: message.status,
        deliveredAt: message.deliveredAt?.toISOString() ?? null,
        readAt: message.readAt?.toISOString() ?? null,
        failedAt: message.failedAt?.toISOString() ?? null,
        error: message.error,
        updatedAt: message.updatedAt.toISOString(),
        wasStatus: was.status,
        wasDeliveredAt: was.deliveredAt?.toISOString() ?? null,
        wasReadAt: was.readAt?.toISOString() ?? null,
        wasFailedAt: was.failedAt?.toISOString() ?? null,
        wasError: was.error,
      });
    }
    if (writes.length === 0) return [];
    const [result] = await statements.run<{ moved: string[] } & OutboxResult>(WRITE, [JSON.stringify(writes, withoutNulls), ...outbox.params(events, now)]);
    outbox.written(events, result!);
    const moved = new Set(result!.moved);
    for (const [id, steps] of results) {
      if (moved.has(id)) for (const { n, message } of steps) outcomes[n] = { ok: message };
    }
    // Changed by someone else meanwhile: read again by the message's own id.
    return reports.filter(({ report }) => results.has(report.id) && !moved.has(report.id)).map(({ report, n }) => ({ report: { ...report, ref: { id: report.id } }, n }));
  }

  async function writeGroup(reports: Report[]): Promise<Array<Outcome<MessageRecord | null>>> {
    const outcomes: Array<Outcome<MessageRecord | null>> = [];
    let pending = reports.map((report, n) => ({ report, n }));
    for (let rounds = 0; pending.length > 0; rounds++) {
      if (rounds === MAX_ROUNDS) {
        for (const { n } of pending) outcomes[n] = { error: new Error('The message kept changing while its receipt was recorded.') };
        break;
      }
      pending = await round(pending, outcomes);
    }
    return outcomes;
  }

  const group = groupCommit<Report, MessageRecord | null>(writeGroup, { maxItems: 500, maxConcurrent: options.maxConcurrent, windowMs: options.windowMs, failsEveryone: (error) => error instanceof Unavailable });
  return {
    byId: (id: string, status: Report['status'], at: Date, events: Report['events'], error?: MessageError): Promise<MessageRecord | null> =>
      isUuid(id) ? group.add({ ref: { id }, status, at, events, error }) : Promise.resolve(null),
    byNetworkId: (instanceId: string, networkMessageId: string, status: Report['status'], at: Date, events: Report['events'], error?: MessageError): Promise<MessageRecord | null> =>
      isUuid(instanceId) ? group.add({ ref: { instanceId, networkMessageId }, status, at, events, error }) : Promise.resolve(null),
  };
}
