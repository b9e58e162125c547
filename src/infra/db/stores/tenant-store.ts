import type { TenantStore } from '../../../domain/tenants/tenants.ports.js';
import type { PrismaClient } from '../database.js';
import { isUniqueViolation, isUuid } from '../prisma-errors.js';
import type { InvalidationBus } from '../../cache/invalidation-bus.js';
import { columnsOf, overridesOf } from './tenant-limits.js';

/** A tenant row as the admin API shows it: the limits of its own apart. */
function settingsOf<T extends { id: string; name: string; plan: string; createdAt: Date } & Parameters<typeof overridesOf>[0]>(row: T) {
  return { id: row.id, name: row.name, plan: row.plan, createdAt: row.createdAt, overrides: overridesOf(row) };
}

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
    async findSettings(tenantId) {
      const row = isUuid(tenantId) ? await prisma.tenant.findUnique({ where: { id: tenantId } }) : null;
      return row && settingsOf(row);
    },
    async change(tenantId, patch) {
      if (!isUuid(tenantId)) return null;
      const { count } = await prisma.tenant.updateMany({
        where: { id: tenantId },
        data: { ...(patch.plan !== undefined ? { plan: patch.plan } : {}), ...columnsOf(patch.overrides ?? {}) },
      });
      // Cached keys carry the plan and the tenant's own limits: every node drops them.
      bus.publish({ kind: 'tenant', id: tenantId });
      const row = count ? await prisma.tenant.findUnique({ where: { id: tenantId } }) : null;
      return row && settingsOf(row);
    },
  };
}
