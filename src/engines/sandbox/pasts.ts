import type { PrismaClient } from '../../infra/db/database.js';
import type { JsonValue } from '../../domain/messages/messages.ports.js';
import { generatedPast, type PhonePast } from './past.js';

/** Which phones have a past: only those given one (`given`), or every phone, made up from its number (`generated`). */
export type PastMode = 'given' | 'generated';

/** The start of the day (UTC) a made-up past ends at: the same past all day, older each day. */
const today = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** The sandbox phones' pasts: given ones kept in the database (every node sees them), made-up ones drawn when asked. */
export function createSandboxPasts(prisma: PrismaClient, mode: PastMode) {
  return {
    /** The past of a phone (digits): the one given, else a made-up one when the mode says so, else none. */
    async of(phone: string, now = new Date()): Promise<PhonePast | null> {
      const row = await prisma.sandboxPast.findUnique({ where: { phone } });
      if (row) return row.past as unknown as PhonePast;
      return mode === 'generated' ? generatedPast(phone, today(now)) : null;
    },
    /** Gives a phone this past, in place of any it had. */
    async give(phone: string, past: PhonePast) {
      const value = past as unknown as JsonValue as object;
      await prisma.sandboxPast.upsert({ where: { phone }, create: { phone, past: value }, update: { past: value, givenAt: new Date() } });
    },
  };
}

export type SandboxPasts = ReturnType<typeof createSandboxPasts>;
