import { newRowId } from '../row-id.js';
import { outboundRecord } from '../../../domain/messages/outbound-record.js';
import type { IdempotencyClaim, MessageRecord, MessageStore, NewOutboundMessage, SendResult, StoredAnswer } from '../../../domain/messages/messages.ports.js';
import { Unavailable } from '../../../domain/errors.js';
import { groupCommit, type Outcome } from '../group-commit.js';
import { type Statements, withoutNulls } from '../statements.js';
import { isForeignKeyViolation } from '../prisma-errors.js';
import { runAgainWhen } from '../run-again.js';

/** Runs of a group whose instance was deleted under it (the second reads it as gone; a third is spare). */
const FOREIGN_KEY_ATTEMPTS = 3;

interface Accept {
  message: NewOutboundMessage;
  claim: IdempotencyClaim | undefined;
  answer: (message: MessageRecord) => SendResult;
}

type Accepted = Awaited<ReturnType<MessageStore['createOutbound']>>;

/** What the statement did with one row. */
type RowOutcome = 'stored' | 'unusable' | 'taken';

/**
 * One atomic statement stores a group of accepted messages and their idempotency answers: a row only if
 * its instance can still carry it (routed: active and connected; named: active, not banned or in error)
 * and its key holds no live answer (an expired one is replaced).
 */
const ACCEPT = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
    n int, id uuid, "tenantId" uuid, "instanceId" uuid, "apiKeyId" uuid, "to" text, "chatId" text, type text, text text,
    "mediaUrl" text, "mediaType" text, caption text, content jsonb, mode text, "queuedAt" timestamptz, "mediaBytes" bigint,
    location jsonb, contacts jsonb, reaction jsonb, quoted jsonb, mentions jsonb, poll jsonb, "pollSecret" text, "fileName" text, voice boolean, file boolean, "mediaState" text,
    routed boolean, scope text, key text, fingerprint text, "expiresAt" timestamptz, response text)
),
usable AS (
  SELECT input.* FROM input LEFT JOIN "Instance" i ON i.id = input."instanceId"
  WHERE input."instanceId" IS NULL
     OR (i."tenantId" = input."tenantId" AND i.active
         AND CASE WHEN input.routed THEN i.state = 'connected' ELSE i.state NOT IN ('banned', 'error') END)
),
claimed AS (
  INSERT INTO "IdempotencyRecord" AS r (id, "tenantId", scope, key, "requestHash", "responseStatus", "responseBody", "createdAt", "expiresAt")
  SELECT id, "tenantId", scope, key, fingerprint, 200, response, "queuedAt", "expiresAt" FROM usable WHERE key IS NOT NULL
  ON CONFLICT ("tenantId", scope, key) DO UPDATE
    SET id = excluded.id, "requestHash" = excluded."requestHash", "responseBody" = excluded."responseBody",
        "createdAt" = excluded."createdAt", "expiresAt" = excluded."expiresAt"
    WHERE r."expiresAt" <= excluded."createdAt"
  RETURNING id
),
stored AS (
  INSERT INTO "Message" (id, "tenantId", "instanceId", "apiKeyId", direction, "to", "chatId", type, text, "mediaUrl", "mediaType",
                         caption, content, location, contacts, reaction, quoted, mentions, poll, "pollSecret", "fileName", voice,
                         "mediaState", status, mode, "queuedAt", "createdAt", "updatedAt")
  SELECT id, "tenantId", "instanceId", "apiKeyId", 'out', "to", "chatId", type, text, "mediaUrl", "mediaType",
         caption, content, location, contacts, reaction, quoted, mentions, poll, decode("pollSecret", 'base64'), "fileName", coalesce(voice, false),
         "mediaState"::"MediaKeepState",
         'queued', mode::"MessageMode", "queuedAt", "queuedAt", "queuedAt"
  FROM usable WHERE key IS NULL OR id IN (SELECT id FROM claimed)
  RETURNING id
),
files AS (
  INSERT INTO "MessageFile" ("messageId", bytes)
  SELECT id, $2::bytea FROM usable WHERE file AND id IN (SELECT id FROM stored)
),
media AS (
  UPDATE "Instance" i SET "mediaSize" = i."mediaSize" + m.bytes
  FROM (SELECT "instanceId", sum("mediaBytes") AS bytes FROM usable
        WHERE "mediaBytes" > 0 AND id IN (SELECT id FROM stored) GROUP BY "instanceId") m
  WHERE i.id = m."instanceId"
)
SELECT input.n,
       CASE WHEN input.id IN (SELECT id FROM stored) THEN 'stored'
            WHEN input.id IN (SELECT id FROM usable) THEN 'taken'
            ELSE 'unusable' END AS outcome
FROM input`;

/**
 * Accepted messages are written in groups (group commit): concurrent sends share one statement and
 * one round trip. Each send still gets its own outcome; when the statement fails as a whole, its rows
 * are written one by one so the failure stays with the row that caused it.
 */
export function acceptBatches(
  statements: Statements,
  findAnswer: (tenantId: string, scope: string, key: string, now: Date) => Promise<StoredAnswer | null>,
  options: { maxConcurrent: number; windowMs: number; onStored?: (count: number) => void },
) {
  /**
   * `file`: the bytes of the one row marked `file` (then `rows` is that row alone), as `$2`; base64
   * inside the JSON made a 16 MiB upload outlast the statement timeout (docs/messaging.md).
   */
  async function write(rows: Array<Record<string, unknown>>, file: Buffer | null = null): Promise<Map<number, RowOutcome>> {
    // An instance deleted after the statement read it: its insert's foreign key check waited for the
    // delete and failed once it committed. The statement wrote nothing; run again, it reads the
    // instance as gone, and those rows are 'unusable' (the other instances' rows are stored).
    const result = await runAgainWhen(isForeignKeyViolation, { attempts: FOREIGN_KEY_ATTEMPTS, firstWaitMs: 1 }, () =>
      statements.run<{ n: number; outcome: RowOutcome }>(ACCEPT, [JSON.stringify(rows, withoutNulls), file]),
    );
    options.onStored?.(result.filter((row) => row.outcome === 'stored').length);
    return new Map(result.map((row) => [row.n, row.outcome]));
  }

  /** Each row alone, each with its own failure. */
  async function writeOneByOne(rows: Array<Record<string, unknown>>): Promise<Map<number, RowOutcome | { error: unknown }>> {
    const outcomes = new Map<number, RowOutcome | { error: unknown }>();
    await Promise.all(
      rows.map(async (row) => {
        try {
          outcomes.set(row.n as number, (await write([row])).get(row.n as number)!);
        } catch (error) {
          outcomes.set(row.n as number, { error });
        }
      }),
    );
    return outcomes;
  }

  async function writePlain(rows: Array<Record<string, unknown>>): Promise<Map<number, RowOutcome | { error: unknown }>> {
    if (rows.length === 0) return new Map();
    try {
      return await write(rows);
    } catch (error) {
      // A database that is not answering fails every row alike; anything else may be one row's fault.
      if (rows.length === 1 || error instanceof Unavailable) throw error;
      return writeOneByOne(rows);
    }
  }

  async function writeGroup(items: Accept[]): Promise<Array<Outcome<Accepted>>> {
    const records = items.map((item) => outboundRecord(item.message, newRowId()));
    const responses = items.map((item, n) => item.answer(records[n]!));
    // Sends of one group that share an idempotency key: the first is written, the others answer as it does.
    const firstWithKey = new Map<string, number>();
    const sameKeyAs = new Map<number, number>();
    const rows: Array<Record<string, unknown>> = [];
    items.forEach(({ message, claim }, n) => {
      if (claim) {
        const slot = `${message.tenantId}\n${claim.scope}\n${claim.key}`;
        const first = firstWithKey.get(slot);
        if (first !== undefined) return void sameKeyAs.set(n, first);
        firstWithKey.set(slot, n);
      }
      const record = records[n]!;
      rows.push({
        n,
        id: record.id,
        tenantId: record.tenantId,
        instanceId: record.instanceId,
        apiKeyId: record.apiKeyId,
        to: record.to,
        chatId: record.chatId,
        type: record.type,
        text: record.text,
        mediaUrl: record.mediaUrl,
        mediaType: record.mediaType,
        caption: record.caption,
        content: record.content,
        location: record.location,
        contacts: record.contacts,
        reaction: record.reaction,
        quoted: record.quoted,
        mentions: record.mentions,
        poll: record.poll,
        pollSecret: record.pollSecret ? Buffer.from(record.pollSecret).toString('base64') : null,
        fileName: record.fileName,
        voice: record.voice || null,
        file: message.fileBytes ? true : null,
        mediaState: record.mediaState,
        mode: record.mode,
        queuedAt: record.queuedAt!.toISOString(),
        mediaBytes: message.mediaBytes ?? 0,
        routed: message.routed,
        scope: claim?.scope ?? null,
        key: claim?.key ?? null,
        fingerprint: claim?.fingerprint ?? null,
        expiresAt: claim?.expiresAt.toISOString() ?? null,
        response: claim ? JSON.stringify(responses[n]) : null,
      });
    });

    // A row with a file is written on its own, beside the group: one statement carries one file.
    const plain = rows.filter((row) => !row.file);
    const withFile = rows.filter((row) => row.file);
    const [group, ...alone] = await Promise.allSettled([
      writePlain(plain),
      ...withFile.map((row) => write([row], items[row.n as number]!.message.fileBytes!)),
    ]);
    // The group's failure is everyone's only when no row with a file was written beside it.
    if (group.status === 'rejected' && withFile.length === 0) throw group.reason;
    const outcomes: Map<number, RowOutcome | { error: unknown }> =
      group.status === 'fulfilled' ? group.value : new Map(plain.map((row) => [row.n as number, { error: group.reason }]));
    alone.forEach((written, i) => {
      const n = withFile[i]!.n as number;
      outcomes.set(n, written.status === 'fulfilled' ? written.value.get(n)! : { error: written.reason });
    });

    const settle = async (n: number): Promise<Outcome<Accepted>> => {
      const first = sameKeyAs.get(n);
      const outcome = outcomes.get(first ?? n)!;
      if (typeof outcome === 'object') return outcome;
      if (outcome === 'unusable') return { ok: { unusable: true } };
      const { message, claim } = items[n]!;
      if (outcome === 'stored') {
        if (first === undefined) return { ok: { message: records[n]!, response: responses[n]! } };
        return { ok: { replay: { fingerprint: items[first]!.claim!.fingerprint, response: responses[first]! } } };
      }
      // The key already held a live answer, written by an earlier request.
      const stored = await findAnswer(message.tenantId, claim!.scope, claim!.key, message.queuedAt);
      if (!stored) return { error: new Error('The answer stored under this Idempotency-Key disappeared while it was read.') };
      return { ok: { replay: stored } };
    };
    return Promise.all(items.map((_, n) => settle(n)));
  }

  const group = groupCommit<Accept, Accepted>(writeGroup, { maxItems: 200, maxConcurrent: options.maxConcurrent, windowMs: options.windowMs, failsEveryone: (error) => error instanceof Unavailable });
  return (message: NewOutboundMessage, claim: IdempotencyClaim | undefined, answer: Accept['answer']) => group.add({ message, claim, answer });
}
