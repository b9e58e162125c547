import type { ProxyVault, StoredProxy } from '../../domain/settings/settings.ports.js';
import type { Statements } from '../../infra/db/statements.js';
import type { StateCipher } from './state-cipher.js';

/** A proxy is one row of the instance's engine state: sealed, bound to its instance (docs/settings.md, "Proxy"). */
const TYPE = 'proxy';
const ID = 'url';

const UPSERT = `
INSERT INTO "EngineKey" ("instanceId", type, id, value, "updatedAt") VALUES ($1::uuid, '${TYPE}', '${ID}', decode($2, 'base64'), now())
ON CONFLICT ("instanceId", type, id) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = EXCLUDED."updatedAt"`;
const READ = `SELECT value FROM "EngineKey" WHERE "instanceId" = $1::uuid AND type = '${TYPE}' AND id = '${ID}'`;
const REMOVE = `DELETE FROM "EngineKey" WHERE "instanceId" = $1::uuid AND type = '${TYPE}' AND id = '${ID}'`;

/** The cipher is opened only when a proxy is kept or read: a gateway whose instances have none never needs the state key. */
export function createProxyVault(deps: { statements: Statements; cipher: () => Promise<StateCipher> }): ProxyVault {
  const place = (instanceId: string) => `${instanceId}/${TYPE}/${ID}`;
  return {
    async read(instanceId) {
      const [row] = await deps.statements.run<{ value: Uint8Array }>(READ, [instanceId]);
      if (!row) return null;
      const kept = JSON.parse((await deps.cipher()).open(row.value, place(instanceId)).toString('utf8')) as { url: string; exitAddress: string | null; checkedAt: string | null };
      return { url: kept.url, exitAddress: kept.exitAddress, checkedAt: kept.checkedAt ? new Date(kept.checkedAt) : null };
    },
    async save(instanceId, proxy: StoredProxy | null) {
      if (!proxy) return void (await deps.statements.run(REMOVE, [instanceId]));
      const plain = Buffer.from(JSON.stringify({ url: proxy.url, exitAddress: proxy.exitAddress, checkedAt: proxy.checkedAt?.toISOString() ?? null }));
      await deps.statements.run(UPSERT, [instanceId, (await deps.cipher()).seal(plain, place(instanceId)).toString('base64')]);
    },
  };
}
