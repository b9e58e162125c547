import { hash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { sameHash } from '../apikeys/api-key-format.js';
import { hashPassword } from '../auth/password.js';
import { Forbidden, Unauthorized } from '../errors.js';
import type { Clock } from '../ports.js';
import { email, password, planName } from '../tenants/tenants.input.js';
import type { Plans } from '../tenants/plans.js';
import { knownPlan } from '../tenants/tenants.service.js';
import { parseInput } from '../validation.js';
import type { SetupStore } from './setup.ports.js';

/** How long a setup link works (unless used first). */
export const SETUP_TOKEN_TTL_MS = 60 * 60 * 1000;

const hashToken = (token: string) => hash('sha256', token, 'hex');

const tokenInput = z.object({ token: z.string({ error: 'is required' }).min(1, 'is required').max(200) });

export const completeSetupInput = tokenInput.extend({
  email,
  password,
  tenantName: z.string().trim().min(1).max(100).optional(),
  /** PLAN_DEFAULT when not given. */
  plan: planName.optional(),
});

export class SetupFinished extends Forbidden {
  constructor() {
    super('Setup is finished: this gateway has a user already. Sign in, or ask the operator of this gateway for an account.');
  }
}

export type SetupService = ReturnType<typeof createSetupService>;

/**
 * The first account of a deployment: while no user exists, each start issues a one-time link
 * (a random token, stored hashed, for SETUP_TOKEN_TTL_MS); the link creates the first tenant and its
 * owner, once. Tokens live in the database, so a link printed by any node works on every node.
 */
export function createSetupService(deps: { setup: SetupStore; clock: Clock; plans: Plans }) {
  const { setup, clock, plans } = deps;

  /** The link's token, open and unused; otherwise why not, as the refusal a client sees. */
  async function openToken(token: string) {
    if (await setup.hasUser()) throw new SetupFinished();
    const tokenHash = hashToken(token);
    const record = await setup.findByHash(tokenHash);
    if (!record || !sameHash(record.tokenHash, tokenHash)) {
      throw new Unauthorized('This setup link is not valid. Use the link the gateway printed at its last start.');
    }
    if (record.usedAt) throw new Unauthorized('This setup link was used already.');
    if (record.expiresAt <= clock.now()) {
      throw new Unauthorized('This setup link has expired (links last one hour). Restart the gateway for a new one.');
    }
    return record;
  }

  return {
    /** At start: a new link while no user exists (null once one does). The token is shown once, in the link. */
    async openIfNoUser(): Promise<{ token: string; expiresAt: Date } | null> {
      if (await setup.hasUser()) {
        await setup.discardAll();
        return null;
      }
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SETUP_TOKEN_TTL_MS);
      await setup.issue({ tokenHash: hashToken(token), expiresAt }, now);
      return { token, expiresAt };
    },

    /** Whether a link can still be used (the page asks before showing its form). */
    async check(input: unknown) {
      const { token } = parseInput(tokenInput, input);
      const record = await openToken(token);
      return { expiresAt: record.expiresAt };
    },

    /** Creates the first tenant and its owner with the link, which is then used up. */
    async complete(input: unknown) {
      const data = parseInput(completeSetupInput, input);
      const plan = knownPlan(plans, data.plan);
      // Checked before the password is hashed: a wrong link costs the gateway nothing.
      await openToken(data.token);
      const tokenHash = hashToken(data.token);
      const created = await setup.useAndCreate(
        (candidate) => sameHash(candidate, tokenHash),
        clock.now(),
        { name: data.tenantName ?? data.email, plan },
        { email: data.email, passwordHash: await hashPassword(data.password) },
      );
      if (created === 'user_exists') throw new SetupFinished();
      if (created === 'token_refused') throw new Unauthorized('This setup link was used already.');
      return created;
    },
  };
}
