import { Prisma } from '../generated/client.js';

/**
 * Waits for every write about the instance already in flight, and holds off new ones, for the rest of
 * the transaction: a status mark holds its message's row and writes its events in the same statement,
 * and a new message or delivery holds a key-share lock on the instance. The delete that follows in the
 * same transaction then reads a snapshot that has every event those writes committed. Without this,
 * a mark that committed while the delete waited for its message's row left its event behind (the
 * delete's snapshot predated it). Messages first, then the instance, the order the writers take them.
 */
export function lockInstanceWrites(id: string): Prisma.Sql[] {
  return [
    Prisma.sql`SELECT count(*) FROM (SELECT 1 FROM "Message" WHERE "instanceId" = ${id}::uuid FOR UPDATE) locked`,
    Prisma.sql`SELECT count(*) FROM (SELECT 1 FROM "Instance" WHERE id = ${id}::uuid FOR UPDATE) locked`,
  ];
}

/**
 * Deletes an instance and everything of it in one statement, run after `lockInstanceWrites` (docs/operating.md, "Data over time"):
 * what has a foreign key to it goes by ON DELETE CASCADE (messages, QR codes, webhook deliveries, its
 * lease, its engine state); its outbox events, idempotency answers, sandbox hand-offs and signals and sandbox files
 * are deleted here.
 * Events a broker has yet to publish stay, with the secrets that sign them, until every broker has
 * them (the retention sweep then removes them). Every part reads the statement's one snapshot.
 */
export function deleteInstance(id: string): Prisma.Sql {
  return Prisma.sql`
WITH instance AS (
  SELECT id, "tenantId", engine, "webhookSecret", "previousWebhookSecret", "webhookSecretRotatedAt" FROM "Instance" WHERE id = ${id}::uuid
),
unpublished AS (
  UPDATE "OutboxEvent" e
  SET signing = jsonb_build_object('current', i."webhookSecret", 'previous', i."previousWebhookSecret", 'rotatedAt', i."webhookSecretRotatedAt")
  FROM instance i
  WHERE e."instanceId" = i.id AND e.streams <> '{}'
  RETURNING e.id
),
events AS (
  DELETE FROM "OutboxEvent" e USING instance i WHERE e."instanceId" = i.id AND e.streams = '{}'
),
answers AS (
  -- Replayed answers of sends through this instance, and of routed sends it carried (the answer names the message).
  DELETE FROM "IdempotencyRecord" r USING instance i
  WHERE r."tenantId" = i."tenantId" AND (
    r.scope = 'instance.send:' || i.id::text
    OR EXISTS (SELECT 1 FROM "Message" m WHERE m."instanceId" = i.id AND m.id::text = substring(r."responseBody" from '"id":"([0-9a-f-]{36})"'))
  )
),
handoffs AS (
  DELETE FROM "SandboxHandoff" h USING instance i WHERE h."instanceId" = i.id
),
signals AS (
  DELETE FROM "SandboxSignal" s USING instance i WHERE s."instanceId" = i.id
),
files AS (
  DELETE FROM "SandboxMedia" f
  USING "Message" m, instance i
  WHERE i.engine = 'CHAT-SANDBOX' AND m."instanceId" = i.id AND m.media IS NOT NULL
    AND m.media->'source'->>'id' ~ '^[0-9a-f-]{36}$' AND f.id = (m.media->'source'->>'id')::uuid
)
DELETE FROM "Instance" WHERE id IN (SELECT id FROM instance) RETURNING "tenantId"::text AS "tenantId"`;
}
