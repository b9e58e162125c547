import type { ApiKeyStore } from '../../../domain/apikeys/apikeys.ports.js';
import type { PrismaClient } from '../database.js';
import { isUuid } from '../prisma-errors.js';
import { freshCache } from '../../cache/fresh-cache.js';
import type { InvalidationBus } from '../../cache/invalidation-bus.js';
import { limitColumns, overridesOf } from './tenant-limits.js';

/**
 * How long a node may keep answering from its cached copy of a key when the invalidation of a
 * revocation never reached it: a revoked key stops working everywhere within this bound.
 */
export const API_KEY_CACHE_MS = 500;

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

/** Keys are looked up on every request: each node keeps them in memory, dropped on revocation and plan changes. */
export function createApiKeyStore(prisma: PrismaClient, bus: InvalidationBus): ApiKeyStore {
  const byHash = freshCache({
    ttlMs: API_KEY_CACHE_MS,
    max: 10_000,
    async load(keyHash) {
      const found = await prisma.apiKey.findUnique({
        where: { keyHash },
        select: { ...publicFields, keyHash: true, tenant: { select: { plan: true, ...limitColumns } } },
      });
      if (!found) return null;
      const { tenant, ...record } = found;
      return { ...record, tenantPlan: tenant.plan, tenantLimits: overridesOf(tenant) };
    },
  });
  // Revocations and plan or limit changes are rare: dropping every key (loads under way included) is exact and
  // cheap. Instance changes (frequent: every QR rotation) and ended sessions do not touch keys.
  bus.subscribe((change) => {
    if (change.kind !== 'instances' && change.kind !== 'sessions') byHash.clear();
  });

  return {
    create: (data) => prisma.apiKey.create({ data, select: publicFields }),
    findByHash: (keyHash) => byHash.get(keyHash),
    findById: (id) => (isUuid(id) ? prisma.apiKey.findUnique({ where: { id }, select: publicFields }) : Promise.resolve(null)),
    listActive: (tenantId) =>
      prisma.apiKey.findMany({ where: { tenantId, revokedAt: null }, orderBy: { createdAt: 'desc' }, select: publicFields }),
    async revoke(id, at) {
      const { count } = await prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
      bus.publish({ kind: 'apiKey', id });
      return count === 1;
    },
    async touch(id, at) {
      // The cached copies learn it first, so requests arriving meanwhile do not write it again.
      byHash.forEach((record) => {
        if (record?.id === id) record.lastUsedAt = at;
      });
      await prisma.apiKey.update({ where: { id }, data: { lastUsedAt: at } });
    },
  };
}
