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

/** Brute-force protection for logins; throws RateLimited when an email or an address is locked out. */
export interface LoginThrottle {
  check(email: string, ip: string): Promise<void>;
  recordFailure(email: string, ip: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}
