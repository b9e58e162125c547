import type { Lease } from '../../domain/ownership/lease.js';
import type { Statements } from '../../infra/db/statements.js';
import { withoutNulls } from '../../infra/db/statements.js';

/**
 * What an instance tells a phone beside messages (the SandboxSignal rows); a chat's state and a block
 * are told to the instance's own phone (its chat list, its block list), naming the chat or person in `text`;
 * so are its own profile and privacy settings, whole in `state` (JSON).
 */
export type SignalKind = 'edit' | 'delete' | 'read' | 'presence' | 'chat_state' | 'block' | 'own_profile' | 'privacy';

export interface Signal {
  /** The chat told: the peer's digits; none for the instance's own phone. */
  to?: string;
  kind: SignalKind;
  networkMessageId?: string;
  text?: string;
  state?: string;
}

/**
 * Written only while the owner's lease is current and unexpired, like a hand-off; `from` is the
 * instance's phone digits at that moment. An edit or a delete names a message the network carried
 * for this instance (a hand-off of it): the network knows no other.
 */
const TELL = `
WITH lease AS (
  SELECT 1 FROM "InstanceLease"
  WHERE "instanceId" = $1::uuid AND owner = $2 AND token = $3::int8 AND "expiresAt" > now()
  FOR SHARE
),
instance AS (SELECT ltrim(phone, '+') AS phone FROM "Instance" WHERE id = $1::uuid AND phone IS NOT NULL)
INSERT INTO "SandboxSignal" ("instanceId", "from", "to", kind, "networkMessageId", text, state)
SELECT $1::uuid, instance.phone, coalesce(s."to", instance.phone), s.kind, s."networkMessageId", s.text, s.state
FROM jsonb_to_recordset($4::jsonb) AS s(ord int, "to" text, kind text, "networkMessageId" text, text text, state text)
CROSS JOIN lease CROSS JOIN instance
WHERE s.kind NOT IN ('edit', 'delete')
   OR EXISTS (SELECT 1 FROM "SandboxHandoff" h WHERE h."instanceId" = $1::uuid AND h."messageId"::text = s."networkMessageId")
ORDER BY s.ord
RETURNING 1`;

const LEASE_HELD = `SELECT 1 FROM "InstanceLease" WHERE "instanceId" = $1::uuid AND owner = $2 AND token = $3::int8 AND "expiresAt" > now()`;

export function createSandboxSignals(statements: Statements) {
  return {
    /**
     * Tells phones, under the lease: 'told' when every signal was written, 'lease_lost' when the
     * lease is no longer current (nothing written), 'unknown_message' when the network carried no
     * message an edit or delete names (nothing of those written).
     */
    async tell(instanceId: string, lease: Lease, signals: Signal[]): Promise<'told' | 'lease_lost' | 'unknown_message'> {
      const rows = await statements.run(TELL, [instanceId, lease.node, lease.token, JSON.stringify(signals.map((signal, ord) => ({ ord, ...signal })), withoutNulls)]);
      if (rows.length === signals.length) return 'told';
      const held = await statements.run(LEASE_HELD, [instanceId, lease.node, lease.token]);
      return held.length ? 'unknown_message' : 'lease_lost';
    },
  };
}

export type SandboxSignals = ReturnType<typeof createSandboxSignals>;
