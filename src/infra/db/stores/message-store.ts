import type { JsonValue, MessageStore, SendResult } from '../../../domain/messages/messages.ports.js';
import type { Outbox } from '../outbox.js';
import { Prisma } from '../generated/client.js';
import type { PrismaClient } from '../database.js';
import { isUuid } from '../prisma-errors.js';
import { messageList } from '../list-scopes.js';
import type { Statements } from '../statements.js';
import { acceptBatches } from './accept-batch.js';
import { dispatchStatements } from './dispatch-statements.js';
import { receiptBatches } from './receipt-batch.js';
import { inboundChat } from './inbound-chat.js';

/**
 * A kept file is read in slices: one statement for all of a 16 MiB file took seconds on a busy
 * machine (most of it the driver reading one 32 MB reply), near the statement timeout (docs/messaging.md).
 */
const FILE_SLICE_BYTES = 1024 * 1024;
const FILE_SIZE = `SELECT octet_length(bytes) AS size FROM "MessageFile" WHERE "messageId" = $1::uuid`;
// As base64 text: PGlite reads a bytea reply (hex) thirty times slower than it encodes base64.
const FILE_SLICE = `SELECT encode(substring(bytes FROM $2::int FOR $3::int), 'base64') AS slice FROM "MessageFile" WHERE "messageId" = $1::uuid`;

const json = (value: unknown) => (value ?? undefined) as Prisma.InputJsonValue | undefined;

/**
 * Messages in the database. The message path (accept, dispatch, receipts) runs as grouped, multi-row
 * statements straight on the driver; the rest goes through Prisma.
 */
export function createMessageStore(prisma: PrismaClient, statements: Statements, outbox: Outbox, options: { maxConcurrent: number; windowMs: number; onStored?: (count: number) => void }): MessageStore {
  async function findAnswer(tenantId: string, scope: string, key: string, now: Date) {
    const record = await prisma.idempotencyRecord.findUnique({ where: { tenantId_scope_key: { tenantId, scope, key } } });
    if (!record || record.expiresAt <= now) return null;
    return { fingerprint: record.requestHash, response: JSON.parse(record.responseBody) as SendResult };
  }

  const accept = acceptBatches(statements, findAnswer, options);
  const dispatch = dispatchStatements(statements, outbox);
  const receipts = receiptBatches(statements, outbox, options);

  return {
    findAnswer,

    createOutbound: accept,

    findById: (id) => (isUuid(id) ? prisma.message.findUnique({ where: { id } }) : Promise.resolve(null)),

    async routeWaiting(tenantId) {
      // Each tenant's least recently used usable instance takes all of the tenant's unrouted queued messages.
      const tenantFilter = tenantId ? Prisma.sql`AND "tenantId" = ${tenantId}::uuid` : Prisma.empty;
      const rows = await prisma.$queryRaw<Array<{ instanceId: string }>>`
        UPDATE "Message" AS m SET "instanceId" = pick."id", "updatedAt" = now()
        FROM (
          SELECT DISTINCT ON ("tenantId") "tenantId", "id" FROM "Instance"
          WHERE "active" AND "state" = 'connected' ${tenantFilter}
          ORDER BY "tenantId", "lastUsedAt" ASC NULLS FIRST, "createdAt" ASC, "id" ASC
        ) AS pick
        WHERE m."tenantId" = pick."tenantId" AND m."instanceId" IS NULL AND m."status" = 'queued' AND m."direction" = 'out'
        RETURNING m."instanceId"::text AS "instanceId"`;
      return [...new Set(rows.map((row) => row.instanceId))];
    },

    async instancesHoldingQueued() {
      const rows = await prisma.$queryRaw<Array<{ id: string }>>`
        SELECT DISTINCT i."id"::text AS "id" FROM "Message" m JOIN "Instance" i ON i."id" = m."instanceId"
        WHERE m."status" = 'queued' AND m."direction" = 'out' AND i."state" = 'connected'`;
      return rows.map((row) => row.id);
    },

    ...dispatch,

    recordStatus: receipts.byId,
    recordNetworkStatus: receipts.byNetworkId,

    findByNetworkId: (instanceId, networkMessageId) =>
      isUuid(instanceId) ? prisma.message.findUnique({ where: { instanceId_networkMessageId: { instanceId, networkMessageId } } }) : Promise.resolve(null),

    async recordEdit(id, text, at, events) {
      return outbox.transaction(async (tx, emit) => {
        // Locked until the transaction ends: a delete for everyone at the same moment goes first or sees the edit.
        const locked = await tx.$queryRaw<Array<{ text: string | null; caption: string | null; deleted: boolean }>>`
          SELECT text, caption, "deletedAt" IS NOT NULL AS deleted FROM "Message" WHERE id = ${id}::uuid FOR UPDATE`;
        const message = locked[0];
        if (!message) return null;
        if (message.deleted) return 'deleted' as const;
        // A media message's words are its caption.
        const words = message.text === null && message.caption !== null ? { caption: text } : { text };
        const row = await tx.message.update({ where: { id }, data: { ...words, editedAt: at } });
        await emit(row, events(row));
        return row;
      });
    },

    async recordDelete(id, at, events) {
      if (!isUuid(id)) return false;
      return outbox.transaction(async (tx, emit) => {
        // Only the first delete marks it (the row's lock orders concurrent ones): later ones store and announce nothing.
        const [row] = await tx.message.updateManyAndReturn({ where: { id, deletedAt: null }, data: { deletedAt: at } });
        if (!row) return false;
        await emit(row, events);
        return true;
      });
    },

    async recordPollVote(id, change, events) {
      return outbox.transaction(async (tx, emit) => {
        // The row is locked until the transaction ends: two votes counted at once never lose one another.
        const locked = await tx.$queryRaw<Array<{ poll: unknown }>>`SELECT poll FROM "Message" WHERE id = ${id}::uuid FOR UPDATE`;
        const poll = locked[0]?.poll;
        if (poll === null || poll === undefined) return null;
        const row = await tx.message.update({ where: { id }, data: { poll: json(change(poll as JsonValue)) } });
        await emit(row, events(row));
        return row;
      });
    },

    async fileOf(messageId) {
      if (!isUuid(messageId)) return null;
      const [file] = await statements.run<{ size: number }>(FILE_SIZE, [messageId]);
      if (!file) return null;
      const slices: Buffer[] = [];
      for (let from = 0; from < file.size; from += FILE_SLICE_BYTES) {
        const [read] = await statements.run<{ slice: string }>(FILE_SLICE, [messageId, from + 1, FILE_SLICE_BYTES]);
        if (!read) return null;
        slices.push(Buffer.from(read.slice, 'base64'));
      }
      return Buffer.concat(slices);
    },

    async emit(message, events) {
      await outbox.transaction((_tx, emit) => emit(message, events));
    },

    async createInbound(message, events) {
      if (message.networkMessageId !== null) {
        // The network hands over again what it is not sure arrived (after a reconnect): stored once.
        const known = await prisma.message.findUnique({
          where: { instanceId_networkMessageId: { instanceId: message.instanceId, networkMessageId: message.networkMessageId } },
          select: { id: true },
        });
        if (known) return null;
      }
      return outbox.transaction(async (tx, emit) => {
        const [created] = await tx.message.createManyAndReturn({
          data: {
            tenantId: message.tenantId,
            instanceId: message.instanceId,
            networkMessageId: message.networkMessageId,
            direction: 'in',
            from: message.from,
            to: message.to,
            type: message.type,
            fromLid: message.fromLid,
            text: message.text,
            caption: message.caption,
            location: json(message.location),
            media: json(message.media),
            contacts: json(message.contacts),
            reaction: json(message.reaction),
            quoted: json(message.quoted),
            mentions: json(message.mentions?.length ? message.mentions : null),
            group: json(message.group ?? null),
            content: json(message.content),
            mediaState: message.mediaState ?? null,
            chatId: message.chatId,
            status: 'delivered',
            mode: 'production',
            deliveredAt: message.at,
            createdAt: message.at,
          },
          // Two reports of one message racing each other: the second stores nothing.
          skipDuplicates: true,
        });
        if (!created) return null;
        // The instance's row first, then the chat's: the order every writer of both takes (no deadlock).
        await tx.instance.update({ where: { id: message.instanceId }, data: { messagesReceived: { increment: 1 } } });
        const chat = await inboundChat(tx, message, created.id);
        await emit(created, events(created, chat));
        return created;
      });
    },

    async failStale(before, at, error, events) {
      // The status is written out (not a parameter) so the plan can use the index of queued messages.
      const stale = await prisma.$queryRaw<Array<{ id: string }>>`
        SELECT id::text AS id FROM "Message" WHERE status = 'queued' AND direction = 'out' AND "createdAt" < ${before}`;
      const failed = [];
      for (const { id } of stale) {
        // The status and its event commit together: a crash in between cannot lose the event.
        const message = await outbox.transaction(async (tx, emit) => {
          const updated = await tx.message.updateMany({
            where: { id, status: 'queued' },
            data: { status: 'failed', failedAt: at, error },
          });
          if (updated.count === 0) return null;
          const row = await tx.message.findUniqueOrThrow({ where: { id } });
          await emit(row, events(row));
          return row;
        });
        if (message) failed.push(message);
      }
      return failed;
    },

    async listByTenant(tenantId, offset, limit, filter) {
      const list = messageList(tenantId, filter);
      const [items, total] = await Promise.all([
        prisma.message.findMany({ ...list, skip: offset, take: limit }),
        prisma.message.count({ where: list.where }),
      ]);
      return { items, total };
    },
  };
}
