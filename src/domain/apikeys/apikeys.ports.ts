import type { LimitOverrides, Plan } from '../tenants/plans.js';

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  testMode: boolean;
  keyPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface ApiKeyStore {
  create(data: {
    tenantId: string;
    createdById: string | null;
    name: string;
    description: string | null;
    testMode: boolean;
    keyHash: string;
    keyPrefix: string;
  }): Promise<ApiKeyRecord>;
  /** With the owning tenant's plan and own limits: authentication needs them in one lookup. */
  findByHash(keyHash: string): Promise<(ApiKeyRecord & { keyHash: string; tenantPlan: Plan; tenantLimits: LimitOverrides }) | null>;
  findById(id: string): Promise<ApiKeyRecord | null>;
  /** Keys that are not revoked, newest first. */
  listActive(tenantId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked if it was not; true when this call revoked it. */
  revoke(id: string, at: Date): Promise<boolean>;
  touch(id: string, at: Date): Promise<void>;
}
