import { type AuthenticationCreds, proto, type SignalDataSet, type SignalDataTypeMap, type SignalKeyStore } from 'baileys';
import { LRUCache } from 'lru-cache';
import { type Lease, LeaseLost } from '../../domain/ownership/lease.js';
import type { Statements } from '../../infra/db/statements.js';
import type { StateCipher } from '../state/state-cipher.js';
import { groupCommit, type Outcome } from '../../infra/db/group-commit.js';
import { decodeStored, encodeStored } from './stored-json.js';

/** The creds are one row beside the keys. */
const CREDS = { type: 'creds', id: '' } as const;

const READ = `SELECT id, value FROM "EngineKey" WHERE "instanceId" = $1::uuid AND type = $2 AND id = ANY($3::text[])`;

/**
 * The library's list of contacts holding a trusted-contact token, rewritten whole on every new contact
 * (~350 KB 10,000 times for 10,000 new contacts), is never stored: a read answers it from the token
 * rows themselves (docs/architecture.md, "The engines").
 */
const TOKEN_INDEX = { type: 'tctoken', id: '__index' } as const;
const TOKEN_IDS = `SELECT id FROM "EngineKey" WHERE "instanceId" = $1::uuid AND type = $2 AND id <> $3 ORDER BY id`;

/**
 * The library's set() calls that arrived together, of any of this node's instances, in one statement:
 * each row is written only while its own lease is current, the lease rows share-locked in instance
 * order (as placement locks them), so a takeover waits for it. Answers the leases that held.
 */
const WRITE = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS t("instanceId" uuid, owner text, token int8, type text, id text, value text)
),
lease AS (
  SELECT l."instanceId", l.owner, l.token FROM "InstanceLease" l
  WHERE (l."instanceId", l.owner, l.token) IN (SELECT "instanceId", owner, token FROM input)
  ORDER BY l."instanceId"
  FOR SHARE
),
written AS (
  INSERT INTO "EngineKey" ("instanceId", type, id, value, "updatedAt")
  SELECT i."instanceId", i.type, i.id, decode(i.value, 'base64'), now() FROM input i
  WHERE i.value IS NOT NULL AND (i."instanceId", i.owner, i.token) IN (SELECT "instanceId", owner, token FROM lease)
  ON CONFLICT ("instanceId", type, id) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = EXCLUDED."updatedAt"
  RETURNING 1
),
removed AS (
  DELETE FROM "EngineKey" k USING input i
  WHERE k."instanceId" = i."instanceId" AND k.type = i.type AND k.id = i.id AND i.value IS NULL
    AND (i."instanceId", i.owner, i.token) IN (SELECT "instanceId", owner, token FROM lease)
  RETURNING 1
)
SELECT coalesce(json_agg(concat_ws('/', "instanceId", owner, token)), '[]'::json) AS held FROM lease`;

const ERASE = `
WITH lease AS (
  SELECT 1 FROM "InstanceLease" WHERE "instanceId" = $1::uuid AND owner = $2 AND token = $3::int8 FOR SHARE
),
removed AS (DELETE FROM "EngineKey" WHERE "instanceId" = $1::uuid AND EXISTS (SELECT 1 FROM lease) RETURNING 1)
SELECT EXISTS (SELECT 1 FROM lease) AS held`;

/** One library set() of an instance, its values already sealed (base64; null to delete). */
interface KeyWrite {
  lease: Lease;
  rows: Array<{ type: string; id: string; value: string | null }>;
}

/** Of the leases given, those current and unexpired, as instance/owner/token (tests know the check by this text). */
export const LEASE_CHECK = `
SELECT coalesce(json_agg(concat_ws('/', l."instanceId", l.owner, l.token)), '[]'::json) AS held
FROM "InstanceLease" l
JOIN jsonb_to_recordset($1::jsonb) AS t("instanceId" uuid, owner text, token int8)
  ON l."instanceId" = t."instanceId" AND l.owner = t.owner AND l.token = t.token
WHERE l."expiresAt" > now()`;

/** A lease as the statements answer it: instance/owner/token. */
const leaseKey = (lease: Lease) => `${lease.instanceId}/${lease.node}/${lease.token}`;

/** A read value no one has: remembered too, since the library asks for absent keys all the time. */
const ABSENT = '';

export type EngineStateStore = ReturnType<typeof createEngineStateStore>;

/**
 * A linked device's state (creds and signal keys) in the database, sealed with the engine state key and
 * written only by the lease owner, fenced by its token. One byte-bounded cache for the node, written
 * through; an instance's entries are dropped whenever it is taken (another node may have written since).
 */
export function createEngineStateStore(deps: {
  statements: Statements;
  cipher: StateCipher;
  cacheBytes: number;
  /** How many groups of writes (and of lease checks) may be in flight at once (1 where the database runs one statement at a time). */
  writesInFlight: number;
}) {
  const { statements, cipher } = deps;
  const cache = new LRUCache<string, string>({ maxSize: deps.cacheBytes, sizeCalculation: (value, key) => value.length + key.length + 32 });
  /** Bumped whenever an instance is taken or its state erased: older cache entries are never read again. */
  const generations = new Map<string, number>();
  const cacheKey = (instanceId: string, type: string, id: string) => `${instanceId}#${generations.get(instanceId) ?? 0}/${type}/${id}`;
  const place = (instanceId: string, type: string, id: string) => `${instanceId}/${type}/${id}`;

  async function readRaw(instanceId: string, type: string, ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const cached = cache.get(cacheKey(instanceId, type, id));
      if (cached === undefined) missing.push(id);
      else if (cached !== ABSENT) found.set(id, cached);
    }
    if (missing.length === 0) return found;
    // Named before the read: an instance taken meanwhile has a new generation this read must not fill.
    const keys = missing.map((id) => cacheKey(instanceId, type, id));
    const rows = await statements.run<{ id: string; value: Uint8Array }>(READ, [instanceId, type, missing]);
    const read = new Map(rows.map((row) => [row.id, cipher.open(row.value, place(instanceId, type, row.id)).toString('utf8')]));
    missing.forEach((id, i) => {
      // A write that committed while this read was under way put its value in the cache, and it is
      // newer than what was read: the read must not put the older one back over it.
      const written = cache.get(keys[i]!);
      const text = written === undefined ? read.get(id) : written === ABSENT ? undefined : written;
      if (written === undefined) cache.set(keys[i]!, text ?? ABSENT);
      if (text !== undefined) found.set(id, text);
    });
    return found;
  }

  /*
   * Every encryption ends in a set() of the session it moved on, so under load many instances write
   * at once: the writes that arrive together (or while earlier ones are in flight) go in one fenced
   * statement. A caller's promise still resolves only once its own rows are committed.
   */
  const writes = groupCommit<KeyWrite, void>(writeGroup, { maxItems: 64, maxConcurrent: deps.writesInFlight });
  /** Each instance's writes not yet answered: an erase waits for them, so nothing older lands after the erase. */
  const pending = new Map<string, Set<Promise<void>>>();

  async function writeGroup(group: KeyWrite[]): Promise<Array<Outcome<void>>> {
    // The same value twice under one lease in a group (a transaction's commit and a write the library
    // makes outside its transactions): the later call's wins. Under two leases (the instance taken
    // again since), only the current one's is written.
    const rows = new Map<string, { instanceId: string; owner: string; token: string; type: string; id: string; value: string | null }>();
    for (const { lease, rows: values } of group) {
      for (const row of values) rows.set(`${leaseKey(lease)}/${row.type}/${row.id}`, { instanceId: lease.instanceId, owner: lease.node, token: lease.token, ...row });
    }
    const [result] = await statements.run<{ held: string[] }>(WRITE, [JSON.stringify([...rows.values()])]);
    const held = new Set(result?.held ?? []);
    return group.map(({ lease }) => (held.has(leaseKey(lease)) ? { ok: undefined } : { error: new LeaseLost(lease.instanceId) }));
  }

  const leaseChecks = groupCommit<Lease, boolean>(
    async (group) => {
      const [result] = await statements.run<{ held: string[] }>(LEASE_CHECK, [JSON.stringify(group.map(({ instanceId, node, token }) => ({ instanceId, owner: node, token })))]);
      const held = new Set(result?.held ?? []);
      return group.map((lease) => ({ ok: held.has(leaseKey(lease)) }));
    },
    { maxItems: 200, maxConcurrent: deps.writesInFlight },
  );

  async function write(instanceId: string, lease: Lease, values: Array<{ type: string; id: string; text: string | null }>) {
    if (values.length === 0) return;
    const rows = values.map(({ type, id, text }) => ({
      type,
      id,
      value: text === null ? null : cipher.seal(Buffer.from(text, 'utf8'), place(instanceId, type, id)).toString('base64'),
    }));
    const written = writes.add({ lease, rows });
    const mine = pending.get(instanceId) ?? new Set();
    pending.set(instanceId, mine.add(written));
    try {
      await written;
    } finally {
      mine.delete(written);
      if (mine.size === 0 && pending.get(instanceId) === mine) pending.delete(instanceId);
    }
    for (const { type, id, text } of values) cache.set(cacheKey(instanceId, type, id), text ?? ABSENT);
  }

  return {
    /** The instance's stored creds; null when it has none (never paired, logged out, erased). */
    async readCreds(instanceId: string): Promise<AuthenticationCreds | null> {
      const text = (await readRaw(instanceId, CREDS.type, [CREDS.id])).get(CREDS.id);
      return text === undefined ? null : decodeStored<AuthenticationCreds>(text);
    },

    writeCreds: (instanceId: string, lease: Lease, creds: AuthenticationCreds) => write(instanceId, lease, [{ ...CREDS, text: encodeStored(creds) }]),

    /**
     * The library's key store for the instance under `lease`: one set() is one fenced statement (the
     * library gathers a transaction's writes into one call). `onLeaseLost` runs when a write is
     * refused because another node took the instance.
     */
    keysFor(instanceId: string, lease: Lease, onLeaseLost: () => void): SignalKeyStore {
      return {
        async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
          const values: { [id: string]: SignalDataTypeMap[T] } = {};
          if (type === TOKEN_INDEX.type && ids.includes(TOKEN_INDEX.id)) {
            const rows = await statements.run<{ id: string }>(TOKEN_IDS, [instanceId, TOKEN_INDEX.type, TOKEN_INDEX.id]);
            values[TOKEN_INDEX.id] = { token: Buffer.from(JSON.stringify(rows.map((row) => row.id))) } as SignalDataTypeMap[T];
          }
          const texts = await readRaw(instanceId, type, type === TOKEN_INDEX.type ? ids.filter((id) => id !== TOKEN_INDEX.id) : ids);
          for (const [id, text] of texts) {
            const value = decodeStored<SignalDataTypeMap[T]>(text);
            // Stored as a plain object; the library expects its protobuf type back.
            values[id] = (type === 'app-state-sync-key' ? proto.Message.AppStateSyncKeyData.fromObject(value as object) : value) as SignalDataTypeMap[T];
          }
          return values;
        },
        async set(data: SignalDataSet) {
          const values: Array<{ type: string; id: string; text: string | null }> = [];
          for (const [type, byId] of Object.entries(data)) {
            for (const [id, value] of Object.entries(byId ?? {})) {
              if (type === TOKEN_INDEX.type && id === TOKEN_INDEX.id) continue;
              values.push({ type, id, text: value == null ? null : encodeStored(value) });
            }
          }
          try {
            await write(instanceId, lease, values);
          } catch (error) {
            if (error instanceof LeaseLost) onLeaseLost();
            throw error;
          }
        },
      };
    },

    /** Everything kept for the instance goes (a logout, a new pairing), under the owner's lease. */
    async erase(instanceId: string, lease: Lease) {
      await Promise.allSettled(pending.get(instanceId) ?? []);
      const [result] = await statements.run<{ held: boolean }>(ERASE, [instanceId, lease.node, lease.token]);
      this.forget(instanceId);
      if (!result?.held) throw new LeaseLost(instanceId);
    },

    /** This node's cached reads of the instance are not trusted any more (it was taken, here or elsewhere). */
    forget(instanceId: string) {
      generations.set(instanceId, (generations.get(instanceId) ?? 0) + 1);
    },

    /**
     * Whether `lease` is the instance's current, unexpired lease: checked right before a hand-off to
     * the network. The checks of the instances dispatching at once go in one statement.
     */
    holds: (lease: Lease): Promise<boolean> => leaseChecks.add(lease),
  };
}
