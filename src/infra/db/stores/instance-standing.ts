import type { InstanceStanding } from '../../../domain/instances/instances.ports.js';
import { freshCache } from '../../cache/fresh-cache.js';
import type { InvalidationBus } from '../../cache/invalidation-bus.js';
import { isUuid } from '../prisma-errors.js';
import type { Statements } from '../statements.js';

/**
 * How long a node may answer from its copy of an instance's standing when the invalidation of a
 * change never reached it. A stale copy lets nothing through that should not pass: the message store
 * stores a send only if its instance can still carry it, and the send reads the standing afresh then.
 */
export const STANDING_CACHE_MS = 2000;

/**
 * What a send through a named instance reads of it on every request (owner, engine, whether it can
 * carry messages), from each node's memory: loaded once per instance, dropped on every change of the
 * instance on any node (the instance store announces each on the invalidation bus).
 */
export function createInstanceStandings(statements: Statements, bus: InvalidationBus) {
  const read = async (id: string) => {
    const [row] = await statements.run<InstanceStanding>(
      `SELECT id::text AS id, "tenantId"::text AS "tenantId", engine, state::text AS state, active,
              coalesce(jsonb_typeof(settings->'sending'->'newContactsPerHour') = 'number', false) AS "checksNewNumbers"
       FROM "Instance" WHERE id = $1::uuid`,
      [id],
    );
    return row ?? null;
  };
  const cache = freshCache({ ttlMs: STANDING_CACHE_MS, max: 10_000, load: read });
  // By tenant and name (paths that name instances, docs/evolution.md): the key is `<tenantId> <name>`.
  const readNamed = async (key: string) => {
    const space = key.indexOf(' ');
    const [row] = await statements.run<InstanceStanding & { name: string }>(
      `SELECT id::text AS id, "tenantId"::text AS "tenantId", engine, state::text AS state, active, name FROM "Instance" WHERE "tenantId" = $1::uuid AND name = $2`,
      [key.slice(0, space), key.slice(space + 1)],
    );
    return row ?? null;
  };
  const named = freshCache({ ttlMs: STANDING_CACHE_MS, max: 10_000, load: readNamed });
  bus.subscribe((change) => {
    if (change.kind === 'everything') cache.clear();
    // A node of an earlier version names only the tenant: everything is dropped then.
    else if (change.kind === 'instances') change.instanceId ? cache.forget(change.instanceId) : cache.clear();
    // A rename or delete changes what a name stands for: names are dropped on any change.
    if (change.kind === 'everything' || change.kind === 'instances') named.clear();
  });
  return {
    /** From memory, or (`fresh`) from the database, the copy in memory replaced. */
    async get(id: string, fresh = false): Promise<InstanceStanding | null> {
      if (!isUuid(id)) return null;
      if (fresh) cache.forget(id);
      return cache.get(id);
    },

    /** The tenant's instance of this name, from memory as `get`. */
    async named(tenantId: string, name: string): Promise<(InstanceStanding & { name: string }) | null> {
      if (!isUuid(tenantId)) return null;
      return named.get(`${tenantId} ${name}`);
    },
  };
}
