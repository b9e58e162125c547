import type { SessionStore } from '../../../domain/auth/auth.ports.js';
import type { PrismaClient } from '../database.js';
import type { InvalidationBus } from '../../cache/invalidation-bus.js';
import { limitColumns, overridesOf } from './tenant-limits.js';

/** Sessions are read from the database on every request; an ended one is announced so every node closes its streams. */
export function createSessionStore(prisma: PrismaClient, bus: InvalidationBus): SessionStore {
  return {
    create: (data) => prisma.session.create({ data, select: { id: true, expiresAt: true } }),
    async findByTokenHash(tokenHash) {
      const session = await prisma.session.findUnique({
        where: { tokenHash },
        include: { user: { select: { tenantId: true, tenant: { select: { plan: true, ...limitColumns } } } } },
      });
      return (
        session && {
          id: session.id,
          userId: session.userId,
          tenantId: session.user.tenantId,
          tenantPlan: session.user.tenant.plan,
          tenantLimits: overridesOf(session.user.tenant),
          expiresAt: session.expiresAt,
          tokenHash: session.tokenHash,
        }
      );
    },
    async deleteByTokenHash(tokenHash) {
      const ended = await prisma.session.findUnique({ where: { tokenHash }, select: { userId: true } });
      if (!ended) return;
      await prisma.session.deleteMany({ where: { tokenHash } });
      bus.publish({ kind: 'sessions', userId: ended.userId });
    },
    async deleteForUser(userId) {
      await prisma.session.deleteMany({ where: { userId } });
      bus.publish({ kind: 'sessions', userId });
    },
  };
}
