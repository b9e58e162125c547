import type { MessageRouter } from '../../../domain/messages/messages.ports.js';
import type { PrismaClient } from '../database.js';

/**
 * Least recently used among the tenant's active, connected instances spreads the load. Picking and
 * stamping happen in one statement. SKIP LOCKED lets concurrent sends take different instances; when
 * every usable instance is locked by a concurrent send, the second pick waits for the least recently
 * used one instead of reporting "none": contention must never leave a message without an instance.
 */
export function createMessageRouter(prisma: PrismaClient): MessageRouter {
  return {
    async route(tenantId) {
      const picked = await prisma.$queryRaw<Array<{ id: string }>>`
        UPDATE "Instance" SET "lastUsedAt" = now()
        WHERE "id" = COALESCE(
          (SELECT "id" FROM "Instance"
            WHERE "tenantId" = ${tenantId}::uuid AND "active" AND "state" = 'connected'
            ORDER BY "lastUsedAt" ASC NULLS FIRST, "createdAt" ASC, "id" ASC
            LIMIT 1
            FOR UPDATE SKIP LOCKED),
          (SELECT "id" FROM "Instance"
            WHERE "tenantId" = ${tenantId}::uuid AND "active" AND "state" = 'connected'
            ORDER BY "lastUsedAt" ASC NULLS FIRST, "createdAt" ASC, "id" ASC
            LIMIT 1)
        )
        AND "active" AND "state" = 'connected'
        RETURNING "id"::text AS "id"`;
      if (picked[0]) return { kind: 'instance', instanceId: picked[0].id };
      const anyActive = await prisma.instance.count({ where: { tenantId, active: true } });
      return anyActive > 0 ? { kind: 'queued' } : { kind: 'none' };
    },
  };
}
