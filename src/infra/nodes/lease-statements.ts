import type { Lease } from '../../domain/ownership/lease.js';
import type { Statements } from '../db/statements.js';

/** Instances that need an owner: a pairing to run, a paired connection to hold, a logout to carry out (see wantsOwner). */
const WANTS_OWNER = `(i."pairingSince" IS NOT NULL OR i."logoutPending" OR i.state IN ('connecting', 'connected') OR (i.state = 'disconnected' AND i.phone IS NOT NULL))`;

/**
 * A node's round in one statement and one snapshot: it announces itself, renews or hands back its leases,
 * and reads the live nodes and the instances that need an owner, lease rows locked in id order as
 * acquisitions lock them (docs/architecture.md, "The plumbing, why").
 */
const ROUND = `
WITH beat AS (
  INSERT INTO "GatewayNode" (id, "lastSeen", "staleAt", "mediaStore") VALUES ($1, now(), now() + $3 * interval '1 millisecond', $4)
  ON CONFLICT (id) DO UPDATE SET "lastSeen" = now(), "staleAt" = EXCLUDED."staleAt", "mediaStore" = EXCLUDED."mediaStore"
  RETURNING 1
),
mine AS (
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
),
wanted AS (
  SELECT i.id, CASE WHEN l."expiresAt" > now() THEN l.owner END AS owner,
         (extract(epoch FROM now() - coalesce(l."expiresAt", i."updatedAt")) * 1000)::float8 AS "orphanedMs"
  FROM "Instance" i LEFT JOIN "InstanceLease" l ON l."instanceId" = i.id
  WHERE ${WANTS_OWNER}
)
SELECT
  (SELECT coalesce(json_agg(json_build_object('instanceId', "instanceId"::text, 'token', token::text)), '[]'::json) FROM renewed WHERE wanted) AS renewed,
  (SELECT coalesce(json_agg(id ORDER BY id), '[]'::json) FROM "GatewayNode" WHERE "staleAt" > now() OR id = $1) AS fresh,
  (SELECT coalesce(json_agg(json_build_object('id', id::text, 'owner', owner, 'orphanedMs', greatest("orphanedMs", 0))), '[]'::json) FROM wanted) AS wanted,
  (SELECT count(*) FROM beat)::int AS beat`;

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
WHERE n."staleAt" > now()
GROUP BY n.id, n."lastSeen"
ORDER BY n.id`;

/** Hands every lease of the node back at once (expired now; the next owner's token is higher). */
const RELEASE_ALL = `UPDATE "InstanceLease" SET "expiresAt" = now() WHERE owner = $1 AND "expiresAt" > now()`;

const LEAVE = `DELETE FROM "GatewayNode" WHERE id = $1 OR "lastSeen" < now() - interval '1 day'`;

export interface Round {
  /** This node's leases, renewed (those it handed back are not among them). */
  renewed: Lease[];
  /** The live nodes: the candidates for new and orphaned instances. */
  fresh: string[];
  /** Every instance that needs an owner: its owner, or for how long it has had none. */
  wanted: Array<{ id: string; owner: string | null; orphanedMs: number }>;
}

export interface LiveNode {
  id: string;
  lastSeen: Date;
  instances: number;
}

/**
 * The SQL of node membership and instance leases (PostgreSQL and PGlite alike); each round records
 * `mediaStore`, the name the next node to start compares its own with (media-store-agreement.ts).
 */
export function leaseStatements(statements: Statements, leaseMs: number, mediaStore: string) {
  const leasesOf = (node: string, rows: Array<{ instanceId: string; token: string }>): Lease[] =>
    rows.map((row) => ({ instanceId: row.instanceId, node, token: row.token }));
  return {
    /** The node's round (see ROUND); it counts as live for `liveMs` from now. */
    async round(node: string, liveMs: number): Promise<Round> {
      const [row] = await statements.run<{ renewed: Array<{ instanceId: string; token: string }>; fresh: string[]; wanted: Round['wanted'] }>(ROUND, [node, leaseMs, liveMs, mediaStore]);
      return { renewed: leasesOf(node, row!.renewed), fresh: row!.fresh, wanted: row!.wanted };
    },
    acquire: async (node: string, instanceIds: string[]) =>
      instanceIds.length ? leasesOf(node, await statements.run(ACQUIRE, [node, leaseMs, instanceIds])) : [],
    /** Nodes that count as live (see ROUND), with the instances each owns. */
    liveNodes: () => statements.run<LiveNode>(LIVE_NODES),
    releaseAll: (node: string) => statements.run(RELEASE_ALL, [node]).then(() => {}),
    leave: (node: string) => statements.run(LEAVE, [node]).then(() => {}),
  };
}

export type LeaseStatements = ReturnType<typeof leaseStatements>;
