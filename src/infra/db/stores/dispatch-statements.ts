import type { MessageRecord, MessageStore, SendingInstance } from '../../../domain/messages/messages.ports.js';
import { digits } from '../../../domain/phone.js';
import { chatIdOfRecipient } from '../../../domain/conversations/chat-id.js';
import { chatKindOf } from '../../../domain/conversations/history-rows.js';
import type { Outbox } from '../outbox.js';
import { OUTBOX_RESULT, type OutboxResult, outboxWrites } from '../outbox-statement.js';
import type { Statements } from '../statements.js';

/** A connected instance and the oldest of its queued messages, in one read. */
const SENDING_BATCH = `
SELECT m.*, i."tenantId" AS "i_tenantId", i.engine AS "i_engine", i.phone AS "i_phone", i.name AS "i_name", i.variant AS "i_variant",
       i."webhookUrl" AS "i_webhookUrl", i."webhookEvents" AS "i_webhookEvents", i.settings AS "i_settings",
       i."restrictedUntil" AS "i_restrictedUntil", i."restrictedReason" AS "i_restrictedReason", i."webhookFormat" AS "i_webhookFormat"
FROM "Instance" i
LEFT JOIN LATERAL (
  SELECT * FROM "Message"
  WHERE "instanceId" = i.id AND status = 'queued' AND direction = 'out'
  ORDER BY "createdAt" ASC LIMIT $2
) m ON true
WHERE i.id = $1::uuid AND i.state = 'connected' AND i.phone IS NOT NULL
ORDER BY m."createdAt" ASC`;

/**
 * queued → sent for those still queued, the instance's count and last use, and their events: one
 * statement, written only while the owner's lease ($4 node, $5 token) is the instance's current one.
 */
const MARK_SENT = `
WITH lease AS (
  SELECT 1 FROM "InstanceLease" WHERE "instanceId" = $2::uuid AND owner = $4 AND token = $5::int8 FOR SHARE
),
sent_input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(id uuid, "sentAt" timestamptz, "networkMessageId" text, "chatId" text, kind text)),
sent AS (
  UPDATE "Message" m SET status = 'sent', "sentAt" = s."sentAt", "from" = $3, "updatedAt" = s."sentAt", "networkMessageId" = s."networkMessageId"
  FROM sent_input s
  WHERE m.id = s.id AND m.status = 'queued' AND m."instanceId" = $2::uuid AND EXISTS (SELECT 1 FROM lease)
  RETURNING m.id, m."sentAt", m."tenantId", m."createdAt", s."chatId", s.kind
),
counted AS (
  UPDATE "Instance"
  SET "messagesSent" = "messagesSent" + (SELECT count(*) FROM sent)::int,
      "lastUsedAt" = GREATEST("lastUsedAt", (SELECT max("sentAt") FROM sent)),
      "updatedAt" = now()
  WHERE id = $2::uuid AND EXISTS (SELECT 1 FROM sent)
  RETURNING 1
),
-- A sent message is its chat's newest (docs/conversations.md). Reading \`counted\` orders the instance's
-- row lock before the chat's, as a received message's transaction takes them: no deadlock between them.
chat_touch AS (
  INSERT INTO "Chat" AS c ("instanceId", id, "tenantId", kind, "lastMessageId", "activityAt", "updatedAt")
  SELECT DISTINCT ON ("chatId") $2::uuid, "chatId", "tenantId", kind::"ChatKind", id, "createdAt", now()
  FROM sent WHERE "chatId" IS NOT NULL AND EXISTS (SELECT 1 FROM counted)
  ORDER BY "chatId", "createdAt" DESC, id DESC
  ON CONFLICT ("instanceId", id) DO UPDATE SET
    "lastMessageId" = CASE WHEN c."lastMessageId" IS NULL OR excluded."activityAt" >= c."activityAt" THEN excluded."lastMessageId" ELSE c."lastMessageId" END,
    "activityAt" = GREATEST(c."activityAt", excluded."activityAt"),
    "updatedAt" = now()
),
${outboxWrites(6, 'sent')}
SELECT (SELECT coalesce(json_agg(id), '[]'::json) FROM sent) AS sent, ${OUTBOX_RESULT}`;

/** A message is a first contact when nothing was exchanged in its chat before it went out (docs/settings.md, "Sending"). */
const EXCHANGED_BEFORE = (chat: string, before: string) => `
  SELECT 1 FROM "Message" p
  WHERE p."instanceId" = $1::uuid AND p."chatId" = ${chat}
    AND ((p.direction = 'in' AND p."createdAt" < ${before}) OR (p.direction = 'out' AND p."sentAt" < ${before}))`;

const SENDING_PACE = `
SELECT (SELECT max("sentAt") FROM "Message" WHERE "instanceId" = $1::uuid AND direction = 'out') AS "lastSentAt",
       (SELECT coalesce(json_agg(f."sentAt" ORDER BY f."sentAt"), '[]'::json) FROM (
          SELECT m."sentAt" FROM "Message" m
          WHERE m."instanceId" = $1::uuid AND m.direction = 'out' AND m."sentAt" > $2 AND m."chatId" NOT LIKE '%@g.us'
            AND NOT EXISTS (${EXCHANGED_BEFORE('m."chatId"', 'm."sentAt"')})
       ) f) AS "newContacts"`;

const NEW_CHATS = `
SELECT c AS "chatId" FROM unnest($2::text[]) AS c
WHERE NOT EXISTS (SELECT 1 FROM "Message" p WHERE p."instanceId" = $1::uuid AND p."chatId" = c AND (p.direction = 'in' OR p."sentAt" IS NOT NULL))`;

type SendingRow = MessageRecord & {
  i_tenantId: string;
  i_engine: string;
  i_phone: string;
  i_name: string;
  i_variant: SendingInstance['variant'];
  i_webhookUrl: string | null;
  i_webhookEvents: string[];
  i_settings: unknown;
  i_restrictedUntil: Date | null;
  i_restrictedReason: string | null;
  i_webhookFormat: string;
};

export function dispatchStatements(statements: Statements, outbox: Outbox): Pick<MessageStore, 'sendingBatch' | 'markSent' | 'sendingPace' | 'newChats' | 'restrictionsLapsed'> {
  return {
    async sendingBatch(instanceId, limit) {
      const rows = await statements.run<SendingRow>(SENDING_BATCH, [instanceId, limit]);
      const first = rows[0];
      if (!first) return null;
      const instance: SendingInstance = {
        id: instanceId,
        tenantId: first.i_tenantId,
        engine: first.i_engine,
        phone: first.i_phone,
        name: first.i_name,
        variant: first.i_variant,
        webhookUrl: first.i_webhookUrl,
        webhookEvents: first.i_webhookEvents,
        settings: first.i_settings,
        restrictedUntil: first.i_restrictedUntil,
        restrictedReason: first.i_restrictedReason,
        webhookFormat: first.i_webhookFormat,
      };
      const messages = rows
        .filter((row) => row.id !== null)
        .map(({ i_tenantId: _t, i_engine: _g, i_phone: _p, i_name: _n, i_variant: _v, i_webhookUrl: _u, i_webhookEvents: _e, i_settings: _s, i_restrictedUntil: _r, i_restrictedReason: _w, i_webhookFormat: _f, ...message }) => message as MessageRecord);
      return { instance, messages };
    },

    async sendingPace(instanceId, since) {
      const [row] = await statements.run<{ lastSentAt: Date | null; newContacts: string[] }>(SENDING_PACE, [instanceId, since]);
      return { lastSentAt: row?.lastSentAt ?? null, newContactsSentAt: (row?.newContacts ?? []).map((at) => new Date(at)) };
    },

    async newChats(instanceId, chatIds) {
      if (chatIds.length === 0) return new Set();
      const rows = await statements.run<{ chatId: string }>(NEW_CHATS, [instanceId, chatIds]);
      return new Set(rows.map((row) => row.chatId));
    },

    async restrictionsLapsed(now) {
      const rows = await statements.run<{ id: string }>(`SELECT id::text AS id FROM "Instance" WHERE "restrictedUntil" <= $1 AND state = 'connected'`, [now]);
      return rows.map((row) => row.id);
    },

    async markSent(instance, sent, lease) {
      const now = new Date();
      const events = sent.flatMap(({ message, events }) => outbox.rows(instance.tenantId, instance, message.id, events, now));
      const [result] = await statements.run<{ sent: string[] } & OutboxResult>(MARK_SENT, [
        JSON.stringify(
          sent.map(({ message, at }) => {
            const chatId = message.chatId ?? chatIdOfRecipient(message.to);
            return { id: message.id, sentAt: at.toISOString(), networkMessageId: message.networkMessageId, chatId, kind: chatKindOf(chatId) };
          }),
        ),
        instance.id,
        digits(instance.phone),
        lease.node,
        lease.token,
        ...outbox.params(events, now),
      ]);
      outbox.written(events, result!);
      return new Set(result!.sent);
    },
  };
}
