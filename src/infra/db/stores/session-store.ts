import type { SessionStore } from '../../../domain/auth/auth.ports.js';
import type { PrismaClient } from '../database.js';
import { limitColumns, overridesOf } from './tenant-limits.js';

export function createSessionStore(prisma: PrismaClient): SessionStore {
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
      await prisma.session.deleteMany({ where: { tokenHash } });
    },
    async deleteForUser(userId) {
      await prisma.session.deleteMany({ where: { userId } });
    },
  };
}
