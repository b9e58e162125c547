import type { ChatFilter, ChatRecord, ChatStateChange, ConversationStore } from '../../../domain/conversations/conversations.ports.js';
import type { MessageRecord } from '../../../domain/messages/messages.ports.js';
import type { PrismaClient } from '../database.js';
import type { Outbox } from '../outbox.js';
import { isUuid } from '../prisma-errors.js';
import { CHAT_NAME, CHAT_WITH_LAST_MESSAGE, chatOfJoined, readChat } from './chat-rows.js';
import type { Statements } from '../statements.js';
import { contactStatements } from './contact-statements.js';
import { historyStatements } from './history-statements.js';
import { likePattern } from './like-pattern.js';
import { groupChats } from './group-chats.js';

const CHAT_PAGE = `SELECT * FROM "Message" WHERE "instanceId" = $1::uuid AND "chatId" = $2`;

/** What each chat filter keeps (docs/conversations.md). */
const FILTERS = {
  all: '',
  unread: 'AND c."unreadCount" > 0',
  archived: 'AND c.archived',
  groups: `AND c.kind = 'group'`,
  direct: `AND c.kind = 'direct'`,
} as const;


/** A list's filter and search as SQL after its other conditions; the search's pattern joins `params`. */
function narrowed(params: unknown[], filter: ChatFilter, search: string | null): string {
  if (!search) return FILTERS[filter];
  params.push(likePattern(search));
  return `${FILTERS[filter]} AND (${CHAT_NAME} ILIKE $${params.length} OR c.id LIKE $${params.length})`;
}

/**
 * The read model of conversations in the database (docs/conversations.md): chats with their names
 * and newest messages, the messages of a chat, contacts, and the phone's history.
 */
export function createConversationStore(prisma: PrismaClient, statements: Statements, outbox: Outbox): ConversationStore {
  const changes = (change: ChatStateChange): { set: string; values: unknown[] } => {
    if ('archived' in change) return { set: 'archived = $3', values: [change.archived] };
    if ('pinned' in change) return { set: 'pinned = $3', values: [change.pinned] };
    if ('mutedUntil' in change) return { set: '"mutedUntil" = $3::timestamptz', values: [change.mutedUntil?.toISOString() ?? null] };
    // Marked unread: at least one to read, as the phone shows it.
    return { set: '"unreadCount" = GREATEST("unreadCount", 1)', values: [] };
  };

  return {
    async listChats(instanceId, { after, limit, filter, search }) {
      const params: unknown[] = [instanceId, limit];
      let where = narrowed(params, filter, search);
      if (after) {
        params.push(after.pinned, after.activityAt.toISOString(), after.id);
        where += ` AND (c.pinned, c."activityAt", c.id) < ($${params.length - 2}::boolean, $${params.length - 1}::timestamptz, $${params.length})`;
      }
      const rows = await statements.run<Record<string, unknown>>(
        `${CHAT_WITH_LAST_MESSAGE} WHERE c."instanceId" = $1::uuid ${where} ORDER BY c.pinned DESC, c."activityAt" DESC, c.id DESC LIMIT $2`,
        params,
      );
      return rows.map(chatOfJoined);
    },

    async countChats(instanceId, { filter, search }) {
      const params: unknown[] = [instanceId];
      const where = narrowed(params, filter, search);
      const [row] = await prisma.$queryRawUnsafe<Array<{ count: number }>>(
        `SELECT count(*)::int AS count FROM "Chat" c LEFT JOIN "Contact" k ON k."instanceId" = c."instanceId" AND k.id = c.id WHERE c."instanceId" = $1::uuid ${where}`,
        ...params,
      );
      return row?.count ?? 0;
    },

    countMessages: (instanceId, chatId) => prisma.message.count({ where: { instanceId, chatId } }),

    async findChat(instanceId, chatId) {
      if (!isUuid(instanceId)) return null;
      const rows = await statements.run<Record<string, unknown>>(`${CHAT_WITH_LAST_MESSAGE} WHERE c."instanceId" = $1::uuid AND c.id = $2`, [instanceId, chatId]);
      return rows[0] ? chatOfJoined(rows[0]) : null;
    },

    // A page deep in a long chat: the row comparison is what the index seeks to (docs/benchmarks.md).
    chatMessages: (instanceId, chatId, { before, limit }) =>
      before
        ? statements.run<MessageRecord>(`${CHAT_PAGE} AND ("createdAt", id) < ($3::timestamptz, $4::uuid) ORDER BY "createdAt" DESC, id DESC LIMIT $5`, [
            instanceId,
            chatId,
            before.createdAt.toISOString(),
            before.id,
            limit,
          ])
        : statements.run<MessageRecord>(`${CHAT_PAGE} ORDER BY "createdAt" DESC, id DESC LIMIT $3`, [instanceId, chatId, limit]),

    oldestMessage: (instanceId, chatId) =>
      prisma.message.findFirst({ where: { instanceId, chatId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),

    async changeChat(instanceId, chatId, change, events) {
      const { set, values } = changes(change);
      return outbox.transaction(async (tx, emit) => {
        const changed = await tx.$executeRawUnsafe(`UPDATE "Chat" SET ${set}, "updatedAt" = now() WHERE "instanceId" = $1::uuid AND id = $2`, instanceId, chatId, ...values);
        if (changed === 0) return null;
        const chat = (await readChat(tx, instanceId, chatId))!;
        await emit(chat, events(chat));
        return chat;
      });
    },

    async markChatRead(instanceId, chatId, at, events) {
      return outbox.transaction(async (tx, emit) => {
        // The chat's row is locked first: an inbound message's transaction adds its unread after this
        // one commits, and its message is not among those this one sees (docs/conversations.md).
        const zeroed = await tx.$executeRawUnsafe(`UPDATE "Chat" SET "unreadCount" = 0, "updatedAt" = now() WHERE "instanceId" = $1::uuid AND id = $2`, instanceId, chatId);
        if (zeroed === 0) return null;
        const read = await tx.$queryRawUnsafe<Array<{ id: string }>>(
          `UPDATE "Message" SET status = 'read', "readAt" = $3, "updatedAt" = $3
           WHERE "instanceId" = $1::uuid AND "chatId" = $2 AND direction = 'in' AND "readAt" IS NULL AND NOT history
           RETURNING id::text AS id`,
          instanceId,
          chatId,
          at,
        );
        const messages: MessageRecord[] = read.length ? await tx.message.findMany({ where: { id: { in: read.map((row) => row.id) } } }) : [];
        const chat = (await readChat(tx, instanceId, chatId))!;
        await emit(chat, events(chat));
        return { chat, read: messages };
      });
    },

    async deleteChat(instanceId, chatId, events) {
      return outbox.transaction(async (tx, emit) => {
        const chat = await tx.$queryRawUnsafe<Array<{ tenantId: string }>>(
          `DELETE FROM "Chat" WHERE "instanceId" = $1::uuid AND id = $2 RETURNING "tenantId"::text AS "tenantId"`,
          instanceId,
          chatId,
        );
        if (!chat[0]) return false;
        await tx.$executeRawUnsafe(`DELETE FROM "Message" WHERE "instanceId" = $1::uuid AND "chatId" = $2`, instanceId, chatId);
        await emit({ tenantId: chat[0].tenantId, instanceId }, events);
        return true;
      });
    },

    ...contactStatements(prisma, outbox),
    ...historyStatements(prisma, outbox),
    ...groupChats(prisma, outbox),
  };
}

export type { ChatRecord };
