import { Prisma } from '../generated/client.js';

/**
 * Waits for the writes about the instance in flight and holds off new ones for the rest of the
 * transaction, so the delete that follows reads every event they committed; messages first, then the
 * instance, the writers' order (docs/architecture.md, "The plumbing, why").
 */
export function lockInstanceWrites(id: string): Prisma.Sql[] {
  return [
    Prisma.sql`SELECT count(*) FROM (SELECT 1 FROM "Message" WHERE "instanceId" = ${id}::uuid FOR UPDATE) locked`,
    Prisma.sql`SELECT count(*) FROM (SELECT 1 FROM "Instance" WHERE id = ${id}::uuid FOR UPDATE) locked`,
  ];
}

/**
 * Deletes an instance and all of it in one snapshot, after `lockInstanceWrites`: foreign keys cascade,
 * the rest (outbox events, idempotency answers, sandbox rows) goes here, and events a broker has yet to
 * publish stay until every broker has them (docs/operating.md, "Data over time").
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
kept AS (
  -- Its kept media, for the media sweep to look at (docs/media.md, "Removing objects").
  INSERT INTO "MediaCheck" (sha256) SELECT DISTINCT m."mediaSha256" FROM "Message" m, instance i WHERE m."instanceId" = i.id AND m."mediaSha256" IS NOT NULL
  ON CONFLICT (sha256) DO UPDATE SET "dueAt" = LEAST("MediaCheck"."dueAt", EXCLUDED."dueAt")
),
files AS (
  DELETE FROM "SandboxMedia" f
  USING "Message" m, instance i
  WHERE i.engine = 'CHAT-SANDBOX' AND m."instanceId" = i.id AND m.media IS NOT NULL
    AND m.media->'source'->>'id' ~ '^[0-9a-f-]{36}$' AND f.id = (m.media->'source'->>'id')::uuid
)
DELETE FROM "Instance" WHERE id IN (SELECT id FROM instance) RETURNING "tenantId"::text AS "tenantId"`;
}
