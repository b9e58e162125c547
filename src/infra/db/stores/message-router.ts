import type { MessageRouter } from '../../../domain/messages/messages.ports.js';
import type { PrismaClient } from '../database.js';

/** Least recently used among the tenant's active, connected instances spreads the load. */
export function createMessageRouter(prisma: PrismaClient): MessageRouter {
  return {
    async route(tenantId) {
      const connected = await prisma.instance.findFirst({
        where: { tenantId, active: true, state: 'connected' },
        orderBy: [{ lastUsedAt: { sort: 'asc', nulls: 'first' } }, { createdAt: 'asc' }],
        select: { id: true },
      });
      if (connected) {
        await prisma.instance.update({ where: { id: connected.id }, data: { lastUsedAt: new Date() } });
        return { kind: 'instance', instanceId: connected.id };
      }
      const anyActive = await prisma.instance.count({ where: { tenantId, active: true } });
      return anyActive > 0 ? { kind: 'queued' } : { kind: 'none' };
    },
  };
}
