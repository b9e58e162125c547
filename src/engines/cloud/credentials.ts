import type { EngineCredentials } from '../../domain/network/credentials.js';
import type { CloudCredentials, CloudToken } from './credentials-input.js';
import type { Statements } from '../../infra/db/statements.js';
import type { StateCipher } from '../state/state-cipher.js';

/** The credentials are one row of the instance's engine state. */
const TYPE = 'cloud';
const ID = 'credentials';

const UPSERT = `
INSERT INTO "EngineKey" ("instanceId", type, id, value, "updatedAt") VALUES ($1::uuid, '${TYPE}', '${ID}', decode($2, 'base64'), now())
ON CONFLICT ("instanceId", type, id) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = EXCLUDED."updatedAt"`;
const READ = `SELECT value FROM "EngineKey" WHERE "instanceId" = $1::uuid AND type = '${TYPE}' AND id = '${ID}'`;
/** The instance's externalId is the phone-number-id (credentials-input.ts); the join keeps CHAT-CLOUD's instances alone. */
const BY_NUMBER = `
SELECT i.id::text AS "instanceId", i."externalId" AS "phoneNumberId", k.value
FROM "Instance" i JOIN "EngineKey" k ON k."instanceId" = i.id AND k.type = '${TYPE}' AND k.id = '${ID}'
WHERE i."externalId" = ANY($1::text[])`;

export type CloudCredentialStore = ReturnType<typeof createCloudCredentialStore>;

/**
 * CHAT-CLOUD credentials in the database, sealed with the engine state key and bound to their
 * instance's row (a sealed value copied to another instance does not open there). Written by any node
 * (create, PUT); read by the owner (to call the API) and by the webhook receiver (the app secret).
 */
export function createCloudCredentialStore(deps: { statements: Statements; cipher: StateCipher }) {
  const { statements, cipher } = deps;
  const place = (instanceId: string) => `${instanceId}/${TYPE}/${ID}`;
  const seal = (instanceId: string, credentials: CloudCredentials) => cipher.seal(Buffer.from(JSON.stringify(credentials)), place(instanceId)).toString('base64');
  const open = (instanceId: string, value: Uint8Array) => JSON.parse(cipher.open(value, place(instanceId)).toString('utf8')) as CloudCredentials;

  async function read(instanceId: string): Promise<CloudCredentials | null> {
    const [row] = await statements.run<{ value: Uint8Array }>(READ, [instanceId]);
    return row ? open(instanceId, row.value) : null;
  }

  // The values are the ones CHAT-CLOUD's own schemas validated (credentials-input.ts).
  const port: EngineCredentials = {
    async save(instanceId: string, credentials: CloudCredentials) {
      await statements.run(UPSERT, [instanceId, seal(instanceId, credentials)]);
    },
    async replace(instanceId: string, parts: CloudToken) {
      const current = await read(instanceId);
      if (!current) return false;
      const next = { ...current, accessToken: parts.accessToken, ...(parts.appSecret ? { appSecret: parts.appSecret } : {}) };
      await statements.run(UPSERT, [instanceId, seal(instanceId, next)]);
      return true;
    },
  };

  return {
    ...port,
    read,
    /** The instances registered for these phone-number-ids, with their credentials. */
    async byPhoneNumberIds(phoneNumberIds: string[]): Promise<Array<{ instanceId: string; credentials: CloudCredentials }>> {
      if (phoneNumberIds.length === 0) return [];
      const rows = await statements.run<{ instanceId: string; phoneNumberId: string; value: Uint8Array }>(BY_NUMBER, [phoneNumberIds]);
      return rows.map((row) => ({ instanceId: row.instanceId, credentials: open(row.instanceId, row.value) }));
    },
  };
}
