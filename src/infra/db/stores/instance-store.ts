import type { InstancePatch, InstanceStore } from '../../../domain/instances/instances.ports.js';
import type { PrismaClient } from '../database.js';
import { Prisma } from '../generated/client.js';
import { isLockConflict, isUniqueViolation, isUuid } from '../prisma-errors.js';
import { instanceList } from '../list-scopes.js';
import { deleteInstance, lockInstanceWrites } from './instance-delete.js';
import type { Outbox } from '../outbox.js';
import type { InvalidationBus } from '../../cache/invalidation-bus.js';
import { LeaseLost } from '../../../domain/ownership/lease.js';
import type { Statements } from '../statements.js';
import { createInstanceStandings } from './instance-standing.js';
import { runAgainWhen } from '../run-again.js';

/** Tries of an instance's delete that PostgreSQL failed to break a lock cycle. */
const DELETE_ATTEMPTS = 5;

/**
 * Serializes the tenant's instance creates and renames (on PostgreSQL and PGlite alike), so the count
 * against the plan limit and the case-insensitive name check are exact.
 */
async function lockTenantInstances(tx: Prisma.TransactionClient, tenantId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`instances:${tenantId}`}))`;
}

/** Names are unique per tenant compared case-insensitively ("Sales line" and "sales line" are one name). */
async function nameInUse(tx: Prisma.TransactionClient, tenantId: string, name: string, except?: string) {
  const clash = await tx.instance.findFirst({
    where: { tenantId, name: { equals: name, mode: 'insensitive' }, ...(except ? { id: { not: except } } : {}) },
    select: { id: true },
  });
  return clash !== null;
}

/** Thrown inside a rename's transaction to roll it back; the store answers 'name_taken'. */
class NameTaken extends Error {}

/**
 * Every change of an instance is announced on `bus` (nodes route the tenant's messages, and check
 * named sends against the instance's standing, from memory) and, once committed, to `onChanged` (the
 * tenant's live stream).
 */
export function createInstanceStore(
  prisma: PrismaClient,
  statements: Statements,
  outbox: Outbox,
  bus: InvalidationBus,
  onChanged: (change: { tenantId: string; instanceId: string; deleted: boolean }) => void = () => {},
): InstanceStore {
  const standings = createInstanceStandings(statements, bus);
  const changed = (tenantId: string, instanceId?: string, deleted = false) => {
    bus.publish({ kind: 'instances', tenantId, ...(instanceId ? { instanceId } : {}) });
    if (instanceId) onChanged({ tenantId, instanceId, deleted });
  };
  const nameTaken = <T>(write: Promise<T>): Promise<T | 'name_taken'> =>
    write.catch((error: unknown) => {
      if (isUniqueViolation(error) || error instanceof NameTaken) return 'name_taken' as const;
      throw error;
    });

  // A JSON column is cleared with the database's NULL, not JSON's null.
  const jsonOrNull = (value: unknown) => (value === null || value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue));

  return {
    createWithinLimit: (data, limit) =>
      nameTaken(
        prisma.$transaction(async (tx) => {
          await lockTenantInstances(tx, data.tenantId);
          // A duplicate name is the more specific answer, so it is checked before the plan limit.
          if (await nameInUse(tx, data.tenantId, data.name)) return 'name_taken' as const;
          if (limit !== null && (await tx.instance.count({ where: { tenantId: data.tenantId } })) >= limit) return 'limit_reached' as const;
          return tx.instance.create({ data: { ...data, historySync: jsonOrNull(data.historySync), mediaPolicy: jsonOrNull(data.mediaPolicy) } });
        }).then((result) => {
          if (typeof result === 'object') changed(result.tenantId, result.id);
          return result;
        }),
      ),

    findById: (id) => (isUuid(id) ? prisma.instance.findUnique({ where: { id } }) : Promise.resolve(null)),

    standing: (id, options) => standings.get(id, options?.fresh),

    listByTenant: (tenantId) => prisma.instance.findMany(instanceList(tenantId)),

    findByName: (tenantId, name) => prisma.instance.findUnique({ where: { tenantId_name: { tenantId, name } } }),

    standingByName: (tenantId, name) => standings.named(tenantId, name),

    async change(id, patch, events, options = {}) {
      if (!isUuid(id)) return null;
      return nameTaken(
        outbox.transaction(async (tx, emit) => {
          if (patch.name !== undefined) {
            const owner = await tx.instance.findUnique({ where: { id }, select: { tenantId: true } });
            if (!owner) return null;
            await lockTenantInstances(tx, owner.tenantId);
            if (await nameInUse(tx, owner.tenantId, patch.name, id)) throw new NameTaken();
          }
          if (options.fence) {
            // Shares the lease row's lock: a takeover waits for this write, or this write sees the takeover.
            const { node, token } = options.fence;
            const held = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "InstanceLease" WHERE "instanceId" = ${id}::uuid AND owner = ${node} AND token = ${token}::int8 FOR SHARE`;
            if (held.length === 0) throw new LeaseLost(id);
          }
          const where: Prisma.InstanceWhereInput = {
            id,
            ...(options.ifState ? { state: { in: options.ifState } } : {}),
            ...(options.ifPairingSince ? { pairingSince: options.ifPairingSince } : {}),
          };
          // A change that only adds a QR code or events still marks the instance changed (and Prisma
          // counts no rows for an update without fields).
          const data = {
            ...patch,
            ...('historySync' in patch ? { historySync: jsonOrNull(patch.historySync) } : {}),
            ...('mediaPolicy' in patch ? { mediaPolicy: jsonOrNull(patch.mediaPolicy) } : {}),
            ...('settings' in patch ? { settings: jsonOrNull(patch.settings) } : {}),
          } as Omit<InstancePatch, 'historySync' | 'mediaPolicy' | 'settings'>;
          const { count } = await tx.instance.updateMany({ where, data: Object.keys(data).length ? data : { updatedAt: new Date() } });
          if (count === 0) return null;
          const instance = await tx.instance.findUniqueOrThrow({ where: { id } });
          if (options.retireQr) await tx.qrCode.updateMany({ where: { instanceId: id, usedAt: null }, data: { usedAt: new Date() } });
          if (options.qr) await tx.qrCode.create({ data: { ...options.qr, instanceId: id } });
          await emit({ tenantId: instance.tenantId, instanceId: id }, events);
          return instance;
        }).then((instance) => {
          if (instance) changed(instance.tenantId, instance.id);
          return instance;
        }),
      );
    },

    async delete(id) {
      if (!isUuid(id)) return;
      // Everything of it goes in one statement (instance-delete.ts). A write in flight can form a lock cycle
      // with the cascade, which PostgreSQL breaks by failing one side: nothing was deleted then, so it is
      // tried again.
      const gone = await runAgainWhen(isLockConflict, { attempts: DELETE_ATTEMPTS, firstWaitMs: 20 }, () =>
        prisma.$transaction(async (tx) => {
          for (const lock of lockInstanceWrites(id)) await tx.$queryRaw(lock);
          return tx.$queryRaw<Array<{ tenantId: string }>>(deleteInstance(id));
        }),
      );
      if (gone[0]) changed(gone[0].tenantId, id, true);
    },

    liveQr: (instanceId, now) =>
      prisma.qrCode.findFirst({ where: { instanceId, usedAt: null, expiresAt: { gt: now } }, orderBy: { createdAt: 'desc' } }),
  };
}
