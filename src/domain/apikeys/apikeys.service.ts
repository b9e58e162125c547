import { type Actor, assertSameTenant } from '../actor.js';
import { Forbidden, NotFound } from '../errors.js';
import type { Clock } from '../ports.js';
import { parseInput } from '../validation.js';
import { generateApiKey } from './api-key-format.js';
import { createApiKeyInput } from './apikeys.input.js';
import type { ApiKeyStore } from './apikeys.ports.js';

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

export function createApiKeysService(deps: { apiKeys: ApiKeyStore; clock: Clock }) {
  const { apiKeys, clock } = deps;

  /** Keys mint and revoke keys only through a logged-in user: a leaked key cannot make itself more keys. */
  function requireUser(actor: Actor) {
    if (actor.kind !== 'user') throw new Forbidden('Managing API keys needs a logged-in user session.');
    return actor;
  }

  async function createKey(tenantId: string, createdById: string | null, input: unknown) {
    const data = parseInput(createApiKeyInput, input);
    const secret = generateApiKey(data.testMode);
    const record = await apiKeys.create({
      tenantId,
      createdById,
      name: data.name,
      description: data.description ?? null,
      testMode: data.testMode,
      keyHash: secret.keyHash,
      keyPrefix: secret.keyPrefix,
    });
    return { ...record, key: secret.key };
  }

  return {
    list(actor: Actor) {
      return apiKeys.listActive(actor.tenantId);
    },

    /** Returns the full key once; only its hash is kept. */
    async create(actor: Actor, input: unknown) {
      const user = requireUser(actor);
      return createKey(user.tenantId, user.userId, input);
    },

    /** Administrative path (CLI): a key for a tenant, created by no user. */
    createForTenant(tenantId: string, input: unknown) {
      return createKey(tenantId, null, input);
    },

    /** Administrative path (CLI): the tenant's active keys. */
    async listForTenant(tenantId: string) {
      return apiKeys.listActive(tenantId);
    },

    /** Administrative path (CLI): revokes one of the tenant's keys. */
    async revokeForTenant(tenantId: string, id: string) {
      const record = await apiKeys.findById(id);
      if (!record || record.revokedAt || record.tenantId !== tenantId) throw new NotFound('API key');
      if (!(await apiKeys.revoke(id, clock.now()))) throw new NotFound('API key');
    },

    async revoke(actor: Actor, id: string) {
      requireUser(actor);
      const record = await apiKeys.findById(id);
      if (!record || record.revokedAt) throw new NotFound('API key');
      assertSameTenant(actor, record);
      if (!(await apiKeys.revoke(id, clock.now()))) throw new NotFound('API key');
    },
  };
}
