import type { ChatRecord, ConversationStore, HistoryProgress } from '../../../domain/conversations/conversations.ports.js';
import { chatKindOf, historyRows } from '../../../domain/conversations/history-rows.js';
import { isGroupChat } from '../../../domain/conversations/chat-id.js';
import type { PrismaClient } from '../database.js';
import type { Outbox } from '../outbox.js';
import { rowIdAt } from '../row-id.js';
import { CHAT_SELECT, type ChatRow, touchChats, withLastMessages } from './chat-rows.js';
import { contactStatements } from './contact-statements.js';

/** Batch keys remembered per instance: a batch handed over again after these is long past its sync. */
const KEPT_KEYS = 2000;

interface StoredProgress extends HistoryProgress {
  keys: string[];
}

const EMPTY: StoredProgress = { batches: 0, messages: 0, chats: 0, progress: 0, done: false, keys: [] };

/**
 * History messages in one statement: each once (the instance's network id is unique), as history,
 * with ids of their own time so pages and retention read them in their place (docs/conversations.md).
 */
const INSERT_HISTORY = `
INSERT INTO "Message" (id, "tenantId", "instanceId", direction, "networkMessageId", "chatId", history, "from", "fromLid", "to", type, text, caption,
                       location, media, contacts, reaction, quoted, mentions, "group", content, status, mode, "sentAt", "deliveredAt", "readAt", "createdAt", "updatedAt")
SELECT id, $1::uuid, $2::uuid, direction::"MessageDirection", "networkMessageId", "chatId", true, "from", "fromLid", "to", type, text, caption,
       location, media, contacts, reaction, quoted, mentions, "group", content, status::"MessageStatus", 'production',
       CASE WHEN direction = 'out' THEN at END, CASE WHEN status IN ('delivered', 'read') THEN at END, CASE WHEN status = 'read' THEN at END, at, now()
FROM jsonb_to_recordset($3::jsonb) AS t(id uuid, direction text, "networkMessageId" text, "chatId" text, "from" text, "fromLid" text, "to" text, type text,
     text text, caption text, location jsonb, media jsonb, contacts jsonb, reaction jsonb, quoted jsonb, mentions jsonb, "group" jsonb, content jsonb, status text, at timestamptz)
ON CONFLICT ("instanceId", "networkMessageId") DO NOTHING
RETURNING id::text AS id, "chatId", "createdAt"`;

/** The phone's own state of its chats (unread, archived, pinned, muted, a group's subject), as its history says. */
const CHAT_STATES = `
UPDATE "Chat" c SET "unreadCount" = coalesce(t."unreadCount", c."unreadCount"), archived = coalesce(t.archived, c.archived),
                    pinned = coalesce(t.pinned, c.pinned), "mutedUntil" = CASE WHEN t.muted THEN t."mutedUntil" ELSE c."mutedUntil" END,
                    subject = coalesce(t.subject, c.subject), "updatedAt" = now()
FROM jsonb_to_recordset($2::jsonb) AS t(id text, "unreadCount" int, archived boolean, pinned boolean, muted boolean, "mutedUntil" timestamptz, subject text)
WHERE c."instanceId" = $1::uuid AND c.id = t.id`;

export function historyStatements(prisma: PrismaClient, outbox: Outbox): Pick<ConversationStore, 'storeHistory'> {
  const contacts = contactStatements(prisma, outbox);
  return {
    async storeHistory(instance, batch, events) {
      // One batch at a time per instance (the row's lock): a batch handed over twice is seen as such.
      const stored = await outbox.transaction(async (tx, emit) => {
        const [locked] = await tx.$queryRawUnsafe<Array<{ progress: StoredProgress | null }>>(
          `SELECT "historyProgress" AS progress FROM "Instance" WHERE id = $1::uuid FOR UPDATE`,
          instance.id,
        );
        const before = { ...EMPTY, ...(locked?.progress ?? {}) };
        if (before.keys.includes(batch.key)) return { messages: 0, chats: [] as ChatRecord[], seen: true, progress: withoutKeys(before) };

        const rows = historyRows(instance.phone, batch).map((row) => ({ ...row, id: rowIdAt(row.at), at: row.at.toISOString() }));
        const inserted = rows.length ? await tx.$queryRawUnsafe<Array<{ id: string; chatId: string; createdAt: Date }>>(INSERT_HISTORY, instance.tenantId, instance.id, JSON.stringify(rows)) : [];
        const subjects = new Map(batch.chats.filter((c) => c.name && isGroupChat(c.chat)).map((c) => [c.chat, c.name!]));
        const touched = await touchChats(
          tx,
          inserted.map((row) => ({
            instanceId: instance.id,
            chatId: row.chatId,
            tenantId: instance.tenantId,
            kind: chatKindOf(row.chatId),
            subject: subjects.get(row.chatId) ?? null,
            messageId: row.id,
            at: row.createdAt.toISOString(),
            unread: 0,
          })),
        );
        if (batch.chats.length) {
          const states = batch.chats.map((c) => ({
            id: c.chat,
            unreadCount: c.unreadCount ?? null,
            archived: c.archived ?? null,
            pinned: c.pinned ?? null,
            muted: c.mutedUntil !== undefined,
            mutedUntil: c.mutedUntil === 'forever' ? '9999-12-31T00:00:00.000Z' : (c.mutedUntil?.toISOString() ?? null),
            subject: isGroupChat(c.chat) ? (c.name ?? null) : null,
          }));
          await tx.$executeRawUnsafe(CHAT_STATES, instance.id, JSON.stringify(states));
        }
        const createdIds = touched.filter((t) => t.created).map((t) => t.id);
        const chats = createdIds.length
          ? await withLastMessages(tx, await tx.$queryRawUnsafe<ChatRow[]>(`${CHAT_SELECT} WHERE c."instanceId" = $1::uuid AND c.id = ANY($2::text[])`, instance.id, createdIds))
          : [];
        const after: StoredProgress = {
          batches: before.batches + 1,
          messages: before.messages + inserted.length,
          chats: before.chats + createdIds.length,
          progress: batch.done ? 100 : Math.max(before.progress, Math.min(100, Math.round(batch.progress ?? before.progress))),
          done: before.done || batch.done,
          keys: [...before.keys, batch.key].slice(-KEPT_KEYS),
        };
        await tx.$executeRawUnsafe(`UPDATE "Instance" SET "historyProgress" = $2::jsonb WHERE id = $1::uuid`, instance.id, JSON.stringify(after));
        const result = { messages: inserted.length, chats, seen: false, progress: withoutKeys(after) };
        const told = events(result);
        if (told.length) await emit({ tenantId: instance.tenantId, instanceId: instance.id }, told);
        return result;
      });
      // Names of people and chats: saved beside, in their own transaction (a LID merge may move chats).
      const named = [
        ...batch.contacts,
        ...batch.chats.filter((c) => c.name && !isGroupChat(c.chat) && /^[0-9]+$/.test(c.chat)).map((c) => ({ phone: c.chat, name: c.name })),
      ];
      if (!stored.seen && named.length) await contacts.saveContacts(instance, named, () => []);
      return stored;
    },
  };
}

const withoutKeys = ({ keys: _, ...progress }: StoredProgress): HistoryProgress => progress;
