import type { EngineMessage } from '../../domain/instances/engine.port.js';
import type { Lease } from '../../domain/instances/ownership.js';
import { digits } from '../../domain/instances/events.js';
import { type Statements, withoutNulls } from '../../infra/db/statements.js';

/**
 * Hands messages to the sandbox network: one row per message per hand-off, written only while the
 * owner's lease is current and unexpired. The lease row is share-locked, so a takeover waits for a
 * hand-off in progress, and a hand-off after a takeover finds the new token and writes nothing.
 */
const HAND_OFF = `
WITH lease AS (
  SELECT 1 FROM "InstanceLease"
  WHERE "instanceId" = $1::uuid AND owner = $2 AND token = $3::int8 AND "expiresAt" > now()
  FOR SHARE
)
INSERT INTO "SandboxHandoff" ("messageId", "instanceId", "to", "from", type, text, "mediaUrl", caption, node, token)
SELECT m."messageId", $1::uuid, m."to", $4, m.type, m.text, m."mediaUrl", m.caption, $2, $3::int8
FROM jsonb_to_recordset($5::jsonb)
  AS m(ord int, "messageId" uuid, "to" text, type text, text text, "mediaUrl" text, caption text)
CROSS JOIN lease
ORDER BY ord
RETURNING 1`;

const HOLDING = `SELECT DISTINCT "messageId"::text AS id FROM "SandboxHandoff" WHERE "messageId" = ANY($1::uuid[])`;

const UNCONFIRMED = `SELECT id::text FROM "Message" WHERE "instanceId" = $1::uuid AND direction = 'out' AND status = 'sent' LIMIT 10000`;

export function createSandboxHandoffs(statements: Statements) {
  return {
    /** How many were handed over: all of them, or none when the lease is no longer current. */
    async handOff(instance: { id: string; phone: string }, messages: EngineMessage[], lease: Lease): Promise<number> {
      const rows = await statements.run(HAND_OFF, [
        instance.id,
        lease.node,
        lease.token,
        digits(instance.phone),
        JSON.stringify(messages.map((message, ord) => ({ ord, ...message })), withoutNulls),
      ]);
      return rows.length;
    },
    async holding(messageIds: string[]): Promise<Set<string>> {
      if (messageIds.length === 0) return new Set();
      const rows = await statements.run<{ id: string }>(HOLDING, [messageIds]);
      return new Set(rows.map((row) => row.id));
    },
    /** Messages of the instance the network took and has not confirmed delivered yet. */
    async unconfirmed(instanceId: string): Promise<string[]> {
      return (await statements.run<{ id: string }>(UNCONFIRMED, [instanceId])).map((row) => row.id);
    },
  };
}

export type SandboxHandoffs = ReturnType<typeof createSandboxHandoffs>;
