import type { MessageRouter, Route } from '../../../domain/messages/messages.ports.js';
import type { PrismaClient } from '../database.js';
import type { Statements } from '../statements.js';
import { freshCache } from '../../cache/fresh-cache.js';
import type { InvalidationBus } from '../../cache/invalidation-bus.js';

/**
 * How long a node may route from its copy of a tenant's usable instances when the invalidation of a
 * change never reached it. A stale pick costs nothing wrong: the message is stored only if its
 * instance can still carry it, and is routed again otherwise.
 */
export const ROUTING_CACHE_MS = 2000;

/**
 * Least recently used among the tenant's active, connected instances spreads the load. Each node routes
 * from memory (loaded once per tenant, dropped when one of its instances changes); a tenant with no
 * usable instance in memory is routed by the database.
 */
export function createMessageRouter(prisma: PrismaClient, statements: Statements, bus: InvalidationBus): MessageRouter {
  const lastUsed = new Map<string, number>();
  const usable = freshCache({
    ttlMs: ROUTING_CACHE_MS,
    max: 10_000,
    async load(tenantId) {
      const rows = await statements.run<{ id: string; lastUsedAt: Date | null }>(
        `SELECT id::text AS id, "lastUsedAt" FROM "Instance"
         WHERE "tenantId" = $1::uuid AND active AND state = 'connected'
         ORDER BY "lastUsedAt" ASC NULLS FIRST, "createdAt" ASC, id ASC`,
        [tenantId],
      );
      for (const row of rows) if (!lastUsed.has(row.id)) lastUsed.set(row.id, row.lastUsedAt?.getTime() ?? 0);
      return rows.map((row) => row.id);
    },
  });
  bus.subscribe((change) => {
    if (change.kind === 'everything') usable.clear();
    else if (change.kind === 'instances') usable.forget(change.tenantId);
  });

  return {
    async route(tenantId) {
      const ids = await usable.get(tenantId);
      if (ids.length === 0) {
        const route = await routeByDatabase(prisma, tenantId);
        if (route.kind === 'instance') usable.forget(tenantId); // memory had it wrong: read it again next time
        return route;
      }
      // The list is in least-recently-used order as loaded; ties keep that order.
      let pick = ids[0]!;
      for (const id of ids) if ((lastUsed.get(id) ?? 0) < (lastUsed.get(pick) ?? 0)) pick = id;
      lastUsed.set(pick, Date.now());
      return { kind: 'instance', instanceId: pick };
    },
    forget: (tenantId) => usable.forget(tenantId),
  };
}

/**
 * Picking and stamping in one statement: SKIP LOCKED lets concurrent sends take different instances,
 * and when all are locked the second pick waits for the least recently used one instead of answering
 * "none", so contention never leaves a message without an instance.
 */
async function routeByDatabase(prisma: PrismaClient, tenantId: string): Promise<Route> {
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
}
