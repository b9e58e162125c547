export type { Plan } from './plans.js';
import type { LimitOverrides, Plan } from './plans.js';

export interface TenantRecord {
  id: string;
  name: string;
  plan: Plan;
  createdAt: Date;
}

/** A tenant with the limits of its own (the admin API's view). */
export interface TenantSettings extends TenantRecord {
  overrides: LimitOverrides;
}

export interface UserRecord {
  id: string;
  tenantId: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
}

export interface TenantStore {
  createTenant(data: { name: string; plan: Plan }): Promise<TenantRecord>;
  /** Creates the tenant and its first user together, or neither; null when the email is taken. */
  createTenantWithUser(
    tenant: { name: string; plan: Plan },
    user: { email: string; passwordHash: string },
  ): Promise<{ tenant: TenantRecord; user: UserRecord } | null>;
  /** Null when the email is taken. */
  createUser(data: { tenantId: string; email: string; passwordHash: string }): Promise<UserRecord | null>;
  findTenant(id: string): Promise<TenantRecord | null>;
  findUserByEmail(email: string): Promise<UserRecord | null>;
  findUser(id: string): Promise<UserRecord | null>;
  /** Whether the gateway has any user at all. */
  hasUser(): Promise<boolean>;
  findSettings(tenantId: string): Promise<TenantSettings | null>;
  /** Changes the plan and the tenant's own limits (null: back to the plan's); every node's cached credentials learn it at once. */
  change(tenantId: string, patch: { plan?: Plan; overrides?: Partial<LimitOverrides> }): Promise<TenantSettings | null>;
  /** Every tenant, oldest first, with how many users and active keys it has. */
  listTenants(): Promise<Array<TenantRecord & { users: number; activeKeys: number }>>;
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;
}
