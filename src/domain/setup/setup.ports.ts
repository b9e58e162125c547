import type { Plan, TenantRecord, UserRecord } from '../tenants/tenants.ports.js';

export interface SetupTokenRecord {
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Why a setup link was refused when it was about to be used. */
export type SetupRefusal = 'user_exists' | 'token_refused';

export interface SetupStore {
  /** Whether any user exists: setup is over once one does. */
  hasUser(): Promise<boolean>;
  /** Stores a new link's hash; links expired or used before `now` are dropped meanwhile. */
  issue(token: { tokenHash: string; expiresAt: Date }, now: Date): Promise<void>;
  /** Links are useless once a user exists. */
  discardAll(): Promise<void>;
  findByHash(tokenHash: string): Promise<SetupTokenRecord | null>;
  /**
   * In one transaction: uses every open link (one use ends setup for every node), checks that the
   * presented one was among them (`matches`, a constant-time comparison) and that no user exists,
   * then creates the tenant and its owner. Two uses at once: the second finds no open link.
   */
  useAndCreate(
    matches: (tokenHash: string) => boolean,
    now: Date,
    tenant: { name: string; plan: Plan },
    owner: { email: string; passwordHash: string },
  ): Promise<{ tenant: TenantRecord; user: UserRecord } | SetupRefusal>;
}
