import type { MessageStore, SendResult } from '../../../domain/messages/messages.ports.js';
import type { PrismaClient } from '../database.js';
import { isUniqueViolation, isUuid } from '../prisma-errors.js';

export function createMessageStore(prisma: PrismaClient): MessageStore {
  async function findAnswer(tenantId: string, scope: string, key: string, now: Date) {
    const record = await prisma.idempotencyRecord.findUnique({ where: { tenantId_scope_key: { tenantId, scope, key } } });
    if (!record || record.expiresAt <= now) return null;
    return { fingerprint: record.requestHash, response: record.responseBody as unknown as SendResult };
  }

  return {
    findAnswer,

    async createOutbound(message, claim, answer) {
      if (!claim) {
        const created = await prisma.message.create({ data: { ...message, direction: 'out', type: 'text', status: 'queued' } });
        return { message: created, response: answer(created) };
      }
      try {
        return await prisma.$transaction(async (tx) => {
          const created = await tx.message.create({
            data: { ...message, direction: 'out', type: 'text', status: 'queued' },
          });
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
              responseBody: { ...response },
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

    async listByTenant(tenantId, offset, limit) {
      const [items, total] = await Promise.all([
        prisma.message.findMany({
          where: { tenantId },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: offset,
          take: limit,
        }),
        prisma.message.count({ where: { tenantId } }),
      ]);
      return { items, total };
    },
  };
}
