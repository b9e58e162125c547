import type { ApiKeyStore } from '../../../domain/apikeys/apikeys.ports.js';
import type { PrismaClient } from '../database.js';
import { isUuid } from '../prisma-errors.js';

const publicFields = {
  id: true,
  tenantId: true,
  name: true,
  description: true,
  testMode: true,
  keyPrefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export function createApiKeyStore(prisma: PrismaClient): ApiKeyStore {
  return {
    create: (data) => prisma.apiKey.create({ data, select: publicFields }),
    async findByHash(keyHash) {
      const found = await prisma.apiKey.findUnique({
        where: { keyHash },
        select: { ...publicFields, keyHash: true, tenant: { select: { plan: true } } },
      });
      if (!found) return null;
      const { tenant, ...record } = found;
      return { ...record, tenantPlan: tenant.plan };
    },
    findById: (id) => (isUuid(id) ? prisma.apiKey.findUnique({ where: { id }, select: publicFields }) : Promise.resolve(null)),
    listActive: (tenantId) =>
      prisma.apiKey.findMany({ where: { tenantId, revokedAt: null }, orderBy: { createdAt: 'desc' }, select: publicFields }),
    async revoke(id, at) {
      const { count } = await prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
      return count === 1;
    },
    async touch(id, at) {
      await prisma.apiKey.update({ where: { id }, data: { lastUsedAt: at } });
    },
  };
}
