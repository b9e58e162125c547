import type { LimitOverrides, Plan } from '../tenants/plans.js';

export interface SessionRecord {
  id: string;
  userId: string;
  tenantId: string;
  tenantPlan: Plan;
  tenantLimits: LimitOverrides;
  expiresAt: Date;
}

export interface SessionStore {
  create(data: { userId: string; tokenHash: string; expiresAt: Date }): Promise<{ id: string; expiresAt: Date }>;
  findByTokenHash(tokenHash: string): Promise<(SessionRecord & { tokenHash: string }) | null>;
  deleteByTokenHash(tokenHash: string): Promise<void>;
  /** Ends every session of the user (its password changed). */
  deleteForUser(userId: string): Promise<void>;
}

/** One login attempt taken from the throttle before the password is verified. */
export interface LoginAttempt {
  /** The password was right: the email's count is cleared and the address gets its attempt back. */
  succeeded(): Promise<void>;
  /** Nothing was verified (the lookup failed): the attempt is given back. */
  giveBack(): Promise<void>;
}

/**
 * Brute-force protection for logins (docs/rest.md, "Login throttling"): `take` counts the attempt
 * atomically before the slow hash, so parallel guesses count, and throws RateLimited when an email
 * or an address must wait.
 */
export interface LoginThrottle {
  take(email: string, ip: string): Promise<LoginAttempt>;
}
