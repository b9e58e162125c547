import type { SetupRefusal, SetupStore } from '../../../domain/setup/setup.ports.js';
import type { PrismaClient } from '../database.js';

/** Thrown inside the transaction to roll it back with a reason. */
class Refused extends Error {
  constructor(readonly reason: SetupRefusal) {
    super(reason);
  }
}

export function createSetupStore(prisma: PrismaClient): SetupStore {
  return {
    hasUser: async () => (await prisma.user.findFirst({ select: { id: true } })) !== null,
    async issue(token, now) {
      await prisma.$transaction([
        prisma.setupToken.deleteMany({ where: { OR: [{ usedAt: { not: null } }, { expiresAt: { lte: now } }] } }),
        prisma.setupToken.create({ data: token }),
      ]);
    },
    async discardAll() {
      await prisma.setupToken.deleteMany({});
    },
    findByHash: (tokenHash) => prisma.setupToken.findUnique({ where: { tokenHash }, select: { tokenHash: true, expiresAt: true, usedAt: true } }),
    async useAndCreate(matches, now, tenant, owner) {
      try {
        return await prisma.$transaction(async (tx) => {
          // Row locks: a second use at once waits here, then finds the links used.
          const open = await tx.$queryRaw<Array<{ tokenHash: string }>>`
            UPDATE "SetupToken" SET "usedAt" = ${now} WHERE "usedAt" IS NULL AND "expiresAt" > ${now} RETURNING "tokenHash"`;
          if (!open.some((row) => matches(row.tokenHash))) throw new Refused('token_refused');
          if (await tx.user.findFirst({ select: { id: true } })) throw new Refused('user_exists');
          const createdTenant = await tx.tenant.create({ data: tenant });
          const createdUser = await tx.user.create({ data: { ...owner, tenantId: createdTenant.id } });
          return { tenant: createdTenant, user: createdUser };
        });
      } catch (error) {
        if (error instanceof Refused) return error.reason;
        throw error;
      }
    },
  };
}
