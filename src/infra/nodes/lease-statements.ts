import type { Lease } from '../../domain/instances/ownership.js';
import type { Statements } from '../db/statements.js';

/** Instances that need an owner: a pairing to run, a paired connection to hold, a logout to carry out (see wantsOwner). */
const WANTS_OWNER = `(i."pairingSince" IS NOT NULL OR i."logoutPending" OR i.state IN ('connecting', 'connected') OR (i.state = 'disconnected' AND i.phone IS NOT NULL))`;

const HEARTBEAT = `
INSERT INTO "GatewayNode" (id, "lastSeen") VALUES ($1, now())
ON CONFLICT (id) DO UPDATE SET "lastSeen" = now()`;

/**
 * The node's unexpired leases: renewed while their instance needs an owner, handed back (expired
 * now, token kept) when it no longer does. Rows are locked in id order, as acquisitions lock them.
 */
const RENEW = `
WITH mine AS (
  SELECT l."instanceId", ${WANTS_OWNER} AS wanted
  FROM "InstanceLease" l JOIN "Instance" i ON i.id = l."instanceId"
  WHERE l.owner = $1 AND l."expiresAt" > now()
  ORDER BY l."instanceId"
  FOR UPDATE OF l
),
renewed AS (
  UPDATE "InstanceLease" l
  SET "expiresAt" = CASE WHEN m.wanted THEN now() + $2 * interval '1 millisecond' ELSE now() END
  FROM mine m WHERE l."instanceId" = m."instanceId"
  RETURNING l."instanceId", l.token, m.wanted
)
SELECT "instanceId"::text AS "instanceId", token::text AS token FROM renewed WHERE wanted`;

/**
 * Every instance that needs an owner, with its current owner when its lease is unexpired, else for
 * how long it has had none.
 */
const PLACEMENT = `
SELECT i.id::text AS id, CASE WHEN l."expiresAt" > now() THEN l.owner END AS owner,
       coalesce(extract(epoch FROM now() - l."expiresAt") * 1000, 0)::float8 AS "orphanedMs"
FROM "Instance" i LEFT JOIN "InstanceLease" l ON l."instanceId" = i.id
WHERE ${WANTS_OWNER}`;

/** Takes over instances whose lease is missing or expired; the token grows on every takeover. */
const ACQUIRE = `
INSERT INTO "InstanceLease" ("instanceId", owner, token, "expiresAt")
SELECT i.id, $1, 1, now() + $2 * interval '1 millisecond'
FROM "Instance" i WHERE i.id = ANY($3::uuid[]) AND ${WANTS_OWNER}
ORDER BY i.id
ON CONFLICT ("instanceId") DO UPDATE
SET owner = EXCLUDED.owner, token = "InstanceLease".token + 1, "expiresAt" = EXCLUDED."expiresAt"
WHERE "InstanceLease"."expiresAt" <= now()
RETURNING "instanceId"::text AS "instanceId", token::text AS token`;

const LIVE_NODES = `
SELECT n.id, n."lastSeen", count(l."instanceId")::int AS instances
FROM "GatewayNode" n LEFT JOIN "InstanceLease" l ON l.owner = n.id AND l."expiresAt" > now()
WHERE n."lastSeen" > now() - $1 * interval '1 millisecond'
GROUP BY n.id, n."lastSeen"
ORDER BY n.id`;

/** Nodes that announced themselves within the last $1 ms. */
const FRESH_NODES = `SELECT id FROM "GatewayNode" WHERE "lastSeen" > now() - $1 * interval '1 millisecond' ORDER BY id`;

/** Hands every lease of the node back at once (expired now; the next owner's token is higher). */
const RELEASE_ALL = `UPDATE "InstanceLease" SET "expiresAt" = now() WHERE owner = $1 AND "expiresAt" > now()`;

const LEAVE = `DELETE FROM "GatewayNode" WHERE id = $1 OR "lastSeen" < now() - interval '1 day'`;

export interface LiveNode {
  id: string;
  lastSeen: Date;
  instances: number;
}

/** The SQL of node membership and instance leases (PostgreSQL and PGlite alike). */
export function leaseStatements(statements: Statements, leaseMs: number) {
  const leasesOf = (node: string, rows: Array<{ instanceId: string; token: string }>): Lease[] =>
    rows.map((row) => ({ instanceId: row.instanceId, node, token: row.token }));
  return {
    heartbeat: (node: string) => statements.run(HEARTBEAT, [node]).then(() => {}),
    renew: async (node: string) => leasesOf(node, await statements.run(RENEW, [node, leaseMs])),
    placement: () => statements.run<{ id: string; owner: string | null; orphanedMs: number }>(PLACEMENT),
    acquire: async (node: string, instanceIds: string[]) =>
      instanceIds.length ? leasesOf(node, await statements.run(ACQUIRE, [node, leaseMs, instanceIds])) : [],
    /** Nodes whose heartbeat has not expired (one lease long), with the instances each owns. */
    liveNodes: () => statements.run<LiveNode>(LIVE_NODES, [leaseMs]),
    /** Nodes that missed at most one heartbeat: the candidates for new and orphaned instances. */
    freshNodes: async () => (await statements.run<{ id: string }>(FRESH_NODES, [Math.floor((leaseMs * 2) / 3)])).map((row) => row.id),
    releaseAll: (node: string) => statements.run(RELEASE_ALL, [node]).then(() => {}),
    leave: (node: string) => statements.run(LEAVE, [node]).then(() => {}),
  };
}

export type LeaseStatements = ReturnType<typeof leaseStatements>;
