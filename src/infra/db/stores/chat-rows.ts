import type { ChatRecord } from '../../../domain/conversations/conversations.ports.js';
import type { MessageRecord } from '../../../domain/messages/messages.ports.js';
import type { Prisma } from '../generated/client.js';

/** Any client raw SQL goes through: the pool or a transaction. */
export type RawClient = Pick<Prisma.TransactionClient, '$queryRawUnsafe' | '$executeRawUnsafe' | 'message'>;

/**
 * A chat's shown name, the one place it is decided (docs/conversations.md): the saved contact name,
 * else the push name, else the group subject (or the name the phone's history gave), else the digits.
 */
export const CHAT_NAME = `coalesce(nullif(k.name, ''), nullif(k."pushName", ''), nullif(c.subject, ''), split_part(c.id, '@', 1))`;

/** A chat row with its name; $1 is always the instance. */
export const CHAT_SELECT = `
SELECT c."instanceId"::text AS "instanceId", c."tenantId"::text AS "tenantId", c.id, c.kind::text AS kind, ${CHAT_NAME} AS name,
       c."lastMessageId"::text AS "lastMessageId", c."unreadCount", c.archived, c.pinned, c."mutedUntil", c."activityAt", c."createdAt", c."updatedAt"
FROM "Chat" c LEFT JOIN "Contact" k ON k."instanceId" = c."instanceId" AND k.id = c.id`;

export type ChatRow = Omit<ChatRecord, 'lastMessage'> & { lastMessageId: string | null };

/**
 * Chats with their newest messages in one statement (the list's hot path, prepared once per
 * connection): the chat's columns as `c_*`, the message's as they are.
 */
export const CHAT_WITH_LAST_MESSAGE = `
SELECT c."instanceId"::text AS "c_instanceId", c."tenantId"::text AS "c_tenantId", c.id AS c_id, c.kind::text AS c_kind, ${CHAT_NAME} AS c_name,
       c."unreadCount" AS "c_unreadCount", c.archived AS c_archived, c.pinned AS c_pinned, c."mutedUntil" AS "c_mutedUntil",
       c."activityAt" AS "c_activityAt", c."createdAt" AS "c_createdAt", c."updatedAt" AS "c_updatedAt", m.*
FROM "Chat" c LEFT JOIN "Contact" k ON k."instanceId" = c."instanceId" AND k.id = c.id LEFT JOIN "Message" m ON m.id = c."lastMessageId"`;

type JoinedRow = Record<string, unknown>;

export function chatOfJoined(row: JoinedRow): ChatRecord {
  const message: JoinedRow = {};
  for (const [key, value] of Object.entries(row)) if (!key.startsWith('c_')) message[key] = value;
  return {
    instanceId: row.c_instanceId as string,
    tenantId: row.c_tenantId as string,
    id: row.c_id as string,
    kind: row.c_kind as ChatRecord['kind'],
    name: row.c_name as string,
    lastMessage: message.id ? (message as unknown as MessageRecord) : null,
    unreadCount: row.c_unreadCount as number,
    archived: row.c_archived as boolean,
    pinned: row.c_pinned as boolean,
    mutedUntil: row.c_mutedUntil as Date | null,
    activityAt: row.c_activityAt as Date,
    createdAt: row.c_createdAt as Date,
    updatedAt: row.c_updatedAt as Date,
  };
}

/** Chat rows with their newest messages, read in one more query. */
export async function withLastMessages(client: RawClient, rows: ChatRow[]): Promise<ChatRecord[]> {
  const ids = rows.map((row) => row.lastMessageId).filter((id): id is string => id !== null);
  const messages = ids.length ? await client.message.findMany({ where: { id: { in: ids } } }) : [];
  const byId = new Map<string, MessageRecord>(messages.map((message) => [message.id, message]));
  return rows.map(({ lastMessageId, ...row }) => ({ ...row, lastMessage: lastMessageId ? (byId.get(lastMessageId) ?? null) : null }));
}

export async function readChat(client: RawClient, instanceId: string, chatId: string): Promise<ChatRecord | null> {
  const rows = await client.$queryRawUnsafe<ChatRow[]>(`${CHAT_SELECT} WHERE c."instanceId" = $1::uuid AND c.id = $2`, instanceId, chatId);
  return (await withLastMessages(client, rows))[0] ?? null;
}

/**
 * Makes or moves a chat for messages stored now: the newest becomes its last message, `unread` is
 * added to its count; the row's lock orders this against a mark-read of the same chat. `$1` JSON
 * rows {instanceId, chatId, tenantId, kind, subject, messageId, at, unread}.
 */
export const TOUCH_CHATS = `
INSERT INTO "Chat" AS c ("instanceId", id, "tenantId", kind, subject, "lastMessageId", "activityAt", "unreadCount", "updatedAt")
SELECT t."instanceId", t."chatId", t."tenantId", t.kind::"ChatKind", t.subject, t."messageId", t.at, t.unread, now()
FROM (
  SELECT DISTINCT ON ("instanceId", "chatId") "instanceId", "chatId", "tenantId", kind, subject, "messageId", at,
         sum(unread) OVER (PARTITION BY "instanceId", "chatId")::int AS unread
  FROM jsonb_to_recordset($1::jsonb) AS r("instanceId" uuid, "chatId" text, "tenantId" uuid, kind text, subject text, "messageId" uuid, at timestamptz, unread int)
  ORDER BY "instanceId", "chatId", at DESC, "messageId" DESC
) t
ON CONFLICT ("instanceId", id) DO UPDATE SET
  "lastMessageId" = CASE WHEN c."lastMessageId" IS NULL OR excluded."activityAt" >= c."activityAt" THEN excluded."lastMessageId" ELSE c."lastMessageId" END,
  "activityAt" = GREATEST(c."activityAt", excluded."activityAt"),
  "unreadCount" = c."unreadCount" + excluded."unreadCount",
  subject = coalesce(excluded.subject, c.subject),
  "updatedAt" = now()
RETURNING c.id, (xmax = 0) AS created`;

export interface ChatTouch {
  instanceId: string;
  chatId: string;
  tenantId: string;
  kind: 'direct' | 'group';
  subject: string | null;
  messageId: string;
  at: string;
  unread: number;
}

export async function touchChats(client: RawClient, touches: ChatTouch[]): Promise<Array<{ id: string; created: boolean }>> {
  if (touches.length === 0) return [];
  return client.$queryRawUnsafe<Array<{ id: string; created: boolean }>>(TOUCH_CHATS, JSON.stringify(touches));
}
