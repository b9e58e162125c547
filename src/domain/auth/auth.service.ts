import { hash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Actor } from '../actor.js';
import { hashApiKey, isWellFormedApiKey, sameHash } from '../apikeys/api-key-format.js';
import type { ApiKeyStore } from '../apikeys/apikeys.ports.js';
import { InvalidApiKey, NotFound, Unauthorized } from '../errors.js';
import type { Clock } from '../ports.js';
import type { TenantRecord, TenantStore } from '../tenants/tenants.ports.js';
import { limitsOf, type Plans } from '../tenants/plans.js';
import { parseInput } from '../validation.js';
import type { LoginThrottle, SessionStore } from './auth.ports.js';
import { DECOY_PASSWORD_HASH, hashPassword, verifyPassword } from './password.js';
import { email as emailSchema, password as passwordSchema } from '../tenants/tenants.input.js';

export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** lastUsedAt is a hint for humans; writing it at most once a minute keeps it off the hot path. */
const TOUCH_INTERVAL_MS = 60_000;

export const loginInput = z.object({
  email: z.string({ error: 'is required' }).min(1, 'is required').max(254),
  password: z.string({ error: 'is required' }).min(1, 'is required').max(1024),
});

const hashToken = (token: string) => hash('sha256', token, 'hex');

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  apiKeys: ApiKeyStore;
  sessions: SessionStore;
  tenants: TenantStore;
  throttle: LoginThrottle;
  clock: Clock;
  plans: Plans;
}) {
  const { apiKeys, sessions, tenants, throttle, clock, plans } = deps;

  async function openSession(user: { id: string; email: string }, tenant: TenantRecord) {
    const token = randomBytes(32).toString('base64url');
    const session = await sessions.create({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(clock.now().getTime() + SESSION_TTL_MS),
    });
    return { token, expiresAt: session.expiresAt, user: { id: user.id, email: user.email }, tenant };
  }

  return {
    async authenticateApiKey(key: string): Promise<Actor> {
      if (!isWellFormedApiKey(key)) throw new InvalidApiKey();
      const keyHash = hashApiKey(key);
      const record = await apiKeys.findByHash(keyHash);
      if (!record || !sameHash(record.keyHash, keyHash) || record.revokedAt) throw new InvalidApiKey();
      const now = clock.now();
      if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        await apiKeys.touch(record.id, now);
      }
      const limits = limitsOf(plans, record.tenantPlan, record.tenantLimits);
      return { kind: 'apiKey', tenantId: record.tenantId, plan: record.tenantPlan, limits, apiKeyId: record.id, testMode: record.testMode };
    },

    async authenticateSession(token: string): Promise<Actor> {
      const tokenHash = hashToken(token);
      const session = await sessions.findByTokenHash(tokenHash);
      if (!session || !sameHash(session.tokenHash, tokenHash) || session.expiresAt <= clock.now()) {
        throw new Unauthorized('The session has expired or is invalid. Log in again.');
      }
      const limits = limitsOf(plans, session.tenantPlan, session.tenantLimits);
      return { kind: 'user', tenantId: session.tenantId, plan: session.tenantPlan, limits, userId: session.userId };
    },

    /** The message never says whether the email or the password was wrong. */
    async login(input: unknown, ip: string) {
      const { email: rawEmail, password } = parseInput(loginInput, input);
      const email = rawEmail.toLowerCase();
      const attempt = await throttle.take(email, ip);
      let user: Awaited<ReturnType<TenantStore['findUserByEmail']>>;
      let valid: boolean;
      try {
        user = await tenants.findUserByEmail(email);
        // A missing user costs a full hash too, so timing does not reveal which emails exist.
        valid = await verifyPassword(password, user?.passwordHash ?? DECOY_PASSWORD_HASH);
      } catch (error) {
        await attempt.giveBack();
        throw error;
      }
      if (!user || !valid) throw new Unauthorized('Invalid email or password.');
      await attempt.succeeded();
      const tenant = await tenants.findTenant(user.tenantId);
      if (!tenant) throw new Unauthorized('Invalid email or password.');
      return openSession(user, tenant);
    },

    /** A session for a user who just proved who they are another way (the first account's setup link). */
    openSession,

    /** Administrative path (CLI): a new password for the user, whose sessions all end. */
    async resetPassword(input: unknown) {
      const data = parseInput(z.object({ email: emailSchema, password: passwordSchema }), input);
      const user = await tenants.findUserByEmail(data.email.toLowerCase());
      if (!user) throw new NotFound('User');
      await tenants.setPasswordHash(user.id, await hashPassword(data.password));
      await sessions.deleteForUser(user.id);
      return { id: user.id, email: user.email, sessionsEnded: true };
    },

    async logout(token: string) {
      await sessions.deleteByTokenHash(hashToken(token));
    },

    /** The caller as a person or integration sees itself. */
    async whoAmI(actor: Actor) {
      const tenant = await tenants.findTenant(actor.tenantId);
      if (!tenant) throw new NotFound('Tenant');
      if (actor.kind === 'user') {
        const user = await tenants.findUser(actor.userId);
        return { tenant, user: user && { id: user.id, email: user.email }, apiKey: null };
      }
      const apiKey = await apiKeys.findById(actor.apiKeyId);
      return { tenant, user: null, apiKey };
    },
  };
}
