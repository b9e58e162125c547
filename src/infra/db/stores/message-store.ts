import type { MessageStore, SendResult } from '../../../domain/messages/messages.ports.js';
import type { Outbox } from '../outbox.js';
import { Prisma } from '../generated/client.js';
import type { PrismaClient } from '../database.js';
import { isUniqueViolation, isUuid } from '../prisma-errors.js';
import { nextMessageStatus } from '../../../domain/messages/message-status.js';
import { digits } from '../../../domain/instances/events.js';
import { messageList } from '../list-scopes.js';

class NotQueued extends Error {}

export function createMessageStore(prisma: PrismaClient, outbox: Outbox): MessageStore {
  async function findAnswer(tenantId: string, scope: string, key: string, now: Date) {
    const record = await prisma.idempotencyRecord.findUnique({ where: { tenantId_scope_key: { tenantId, scope, key } } });
    if (!record || record.expiresAt <= now) return null;
    return { fingerprint: record.requestHash, response: JSON.parse(record.responseBody) as SendResult };
  }

  return {
    findAnswer,

    async createOutbound({ mediaBytes, ...message }, claim, answer) {
      // One instant for "accepted": the answer's timestamp is createdAt, and it equals timestamps.queued.
      const data = { ...message, direction: 'out' as const, status: 'queued' as const, createdAt: message.queuedAt };
      const countMedia = (tx: Prisma.TransactionClient) =>
        mediaBytes && message.instanceId
          ? tx.instance.update({ where: { id: message.instanceId }, data: { mediaSize: { increment: mediaBytes } } })
          : Promise.resolve();
      if (!claim && !mediaBytes) {
        // The common case stays one statement: no transaction round trips on the send path.
        const created = await prisma.message.create({ data });
        return { message: created, response: answer(created) };
      }
      if (!claim) {
        const created = await prisma.$transaction(async (tx) => {
          const row = await tx.message.create({ data });
          await countMedia(tx);
          return row;
        });
        return { message: created, response: answer(created) };
      }
      try {
        return await prisma.$transaction(async (tx) => {
          const created = await tx.message.create({ data });
          await countMedia(tx);
          const response = answer(created);
          // An expired record under the same key no longer counts; make room for the new one.
          await tx.idempotencyRecord.deleteMany({
            where: { tenantId: message.tenantId, scope: claim.scope, key: claim.key, expiresAt: { lte: message.queuedAt } },
          });
          await tx.idempotencyRecord.create({
            data: {
              tenantId: message.tenantId,
              scope: claim.scope,
              key: claim.key,
              requestHash: claim.fingerprint,
              responseStatus: 200,
              responseBody: JSON.stringify(response),
              expiresAt: claim.expiresAt,
            },
          });
          return { message: created, response };
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          // A concurrent request with the same key committed first; its message stands, ours was rolled back.
          const replay = await findAnswer(message.tenantId, claim.scope, claim.key, message.queuedAt);
          if (replay) return { replay };
        }
        throw error;
      }
    },

    findById: (id) => (isUuid(id) ? prisma.message.findUnique({ where: { id } }) : Promise.resolve(null)),

    queuedFor: (instanceId, limit) =>
      prisma.message.findMany({ where: { instanceId, status: 'queued' }, orderBy: { createdAt: 'asc' }, take: limit }),

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

    async markSent(id, at, events) {
      return outbox.transaction(async (tx, emit) => {
        const message = await tx.message.findUnique({ where: { id }, select: { tenantId: true, instanceId: true } });
        if (!message?.instanceId) return false;
        const instance = await tx.instance.update({
          where: { id: message.instanceId },
          data: { messagesSent: { increment: 1 } },
          select: { phone: true },
        });
        const { count } = await tx.message.updateMany({
          where: { id, status: 'queued' },
          data: { status: 'sent', sentAt: at, from: digits(instance.phone) },
        });
        if (count === 0) throw new NotQueued();
        await emit(message, events);
        return true;
      }).catch((error: unknown) => {
        if (error instanceof NotQueued) return false;
        throw error;
      });
    },

    async recordStatus(id, status, at, events, error) {
      if (!isUuid(id)) return null;
      return outbox.transaction(async (tx, emit) => {
        // Two receipts of one message (delivered, read) may arrive at once: the row lock makes the second
        // read what the first wrote, so the status it computes never goes backwards.
        await tx.$executeRaw`SELECT 1 FROM "Message" WHERE "id" = ${id}::uuid FOR UPDATE`;
        const message = await tx.message.findUnique({ where: { id } });
        if (!message) return null;
        const stamp = { delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' } as const;
        const data: Prisma.MessageUpdateInput = { [stamp[status]]: message[stamp[status]] ?? at };
        if (error) data.error = error;
        data.status = nextMessageStatus(message.status, status);
        const updated = await tx.message.update({ where: { id }, data });
        await emit(updated, events(updated));
        return updated;
      });
    },

    async emit(message, events) {
      await outbox.transaction((_tx, emit) => emit(message, events));
    },

    async createInbound(message, events) {
      return outbox.transaction(async (tx, emit) => {
        const created = await tx.message.create({
          data: {
            tenantId: message.tenantId,
            instanceId: message.instanceId,
            direction: 'in',
            from: message.from,
            to: message.to,
            type: message.type,
            text: message.text,
            location: (message.location ?? undefined) as Prisma.InputJsonValue | undefined,
            status: 'delivered',
            mode: 'production',
            deliveredAt: message.at,
            createdAt: message.at,
          },
        });
        await tx.instance.update({ where: { id: message.instanceId }, data: { messagesReceived: { increment: 1 } } });
        await emit(created, events(created));
        return created;
      });
    },

    async failStale(before, at, error, events) {
      const stale = await prisma.message.findMany({ where: { status: 'queued', direction: 'out', createdAt: { lt: before } }, select: { id: true } });
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

    async listByTenant(tenantId, offset, limit) {
      const list = messageList(tenantId);
      const [items, total] = await Promise.all([
        prisma.message.findMany({ ...list, skip: offset, take: limit }),
        prisma.message.count({ where: list.where }),
      ]);
      return { items, total };
    },
  };
}
