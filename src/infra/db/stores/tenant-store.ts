import type { TenantStore } from '../../../domain/tenants/tenants.ports.js';
import type { PrismaClient } from '../database.js';
import { isUniqueViolation, isUuid } from '../prisma-errors.js';
import type { InvalidationBus } from '../../cache/invalidation-bus.js';

export function createTenantStore(prisma: PrismaClient, bus: InvalidationBus): TenantStore {
  async function nullOnDuplicate<T>(write: Promise<T>): Promise<T | null> {
    try {
      return await write;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  return {
    createTenant: (data) => prisma.tenant.create({ data }),
    createTenantWithUser: (tenant, user) =>
      nullOnDuplicate(
        prisma.$transaction(async (tx) => {
          const createdTenant = await tx.tenant.create({ data: tenant });
          const createdUser = await tx.user.create({ data: { ...user, tenantId: createdTenant.id } });
          return { tenant: createdTenant, user: createdUser };
        }),
      ),
    createUser: (data) => nullOnDuplicate(prisma.user.create({ data })),
    findTenant: (id) => (isUuid(id) ? prisma.tenant.findUnique({ where: { id } }) : Promise.resolve(null)),
    findUserByEmail: (email) => prisma.user.findUnique({ where: { email } }),
    findUser: (id) => (isUuid(id) ? prisma.user.findUnique({ where: { id } }) : Promise.resolve(null)),
    hasUser: async () => (await prisma.user.findFirst({ select: { id: true } })) !== null,
    async listTenants() {
      const tenants = await prisma.tenant.findMany({
        orderBy: { createdAt: 'asc' },
        include: { _count: { select: { users: true, apiKeys: { where: { revokedAt: null } } } } },
      });
      return tenants.map(({ _count, ...tenant }) => ({ ...tenant, users: _count.users, activeKeys: _count.apiKeys }));
    },
    async setPasswordHash(userId, passwordHash) {
      await prisma.user.update({ where: { id: userId }, data: { passwordHash } });
    },
    async setPlan(tenantId, plan) {
      const { count } = await prisma.tenant.updateMany({ where: { id: tenantId }, data: { plan } });
      // Cached keys carry the plan (it sets the tenant's limits).
      bus.publish({ kind: 'tenant', id: tenantId });
      return count ? prisma.tenant.findUnique({ where: { id: tenantId } }) : null;
    },
  };
}
