import { createHash } from 'node:crypto';
import type { EngineMessage, MessageRef } from '../../domain/network/engine-messages.js';
import type { Lease } from '../../domain/ownership/lease.js';
import { digits } from '../../domain/phone.js';
import { type Statements, withoutNulls } from '../../infra/db/statements.js';

/**
 * Hands messages to the sandbox network: a row per message and receiving phone, written only while the
 * owner's lease holds. The lease row is share-locked, so a takeover waits for a hand-off in progress and
 * a later hand-off writes nothing. Answers whether the lease held.
 */
const HAND_OFF = `
WITH lease AS (
  SELECT 1 FROM "InstanceLease"
  WHERE "instanceId" = $1::uuid AND owner = $2 AND token = $3::int8 AND "expiresAt" > now()
  FOR SHARE
),
handed AS (
  INSERT INTO "SandboxHandoff" ("messageId", "instanceId", "to", "from", "group", type, text, "mediaUrl", caption, content, node, token)
  SELECT m."messageId", $1::uuid, coalesce(g.phone, m."to"), $4, g."groupId", m.type, m.text, m."mediaUrl", m.caption, m.content, $2, $3::int8
  FROM jsonb_to_recordset($5::jsonb)
    AS m(ord int, "messageId" uuid, "to" text, type text, text text, "mediaUrl" text, caption text, content jsonb)
  LEFT JOIN "SandboxGroupMember" g ON g."groupId" = m."to" AND g.phone <> $4
  CROSS JOIN lease
  WHERE m."to" NOT LIKE '%@g.us' OR g.phone IS NOT NULL
  ORDER BY m.ord, g.seq
  RETURNING 1
)
SELECT count(*)::int AS held FROM lease`;

const HOLDING = `SELECT DISTINCT "messageId"::text AS id FROM "SandboxHandoff" WHERE "messageId" = ANY($1::uuid[])`;

const UNCONFIRMED = `SELECT id::text FROM "Message" WHERE "instanceId" = $1::uuid AND direction = 'out' AND status = 'sent' LIMIT 10000`;

/** A message named by another one (a reply's quote, a reaction's target), as the phone keeps it. */
export interface HandedRef {
  networkMessageId: string;
  fromMe: boolean;
  text: string | null;
}

/** What a phone decodes of a message beyond its text: the kind's own fields, none for plain text. */
export interface HandedContent {
  mentions?: string[];
  quoted?: HandedRef;
  reaction?: { target: HandedRef; emoji: string };
  location?: NonNullable<EngineMessage['location']>;
  /** A poll: its question, options and how many a voter may pick (its secret stays with the gateway). */
  poll?: { name: string; options: string[]; selectableCount: number };
  contacts?: NonNullable<EngineMessage['contacts']>;
  /** The file as the phone got it: by URL, or the uploaded bytes (their size and SHA-256, not the bytes). */
  media?: { mimetype: string | null; fileName: string | null; voice: boolean; size?: number; sha256?: string };
}

const MEDIA_KINDS = new Set(['image', 'video', 'audio', 'document', 'sticker']);

/** The phone's side of a ref: the other side's view of "from me" is the instance's. */
const handedRef = (ref: MessageRef): HandedRef => ({ networkMessageId: ref.networkMessageId, fromMe: ref.fromMe, text: ref.text });

export function handedContent(message: EngineMessage): HandedContent | null {
  const content: HandedContent = {};
  if (message.mentions?.length) content.mentions = message.mentions;
  if (message.quoted) content.quoted = handedRef(message.quoted);
  if (message.reaction) content.reaction = { target: handedRef(message.reaction.target), emoji: message.reaction.emoji };
  if (message.location) content.location = message.location;
  if (message.poll) content.poll = { name: message.poll.name, options: message.poll.options, selectableCount: message.poll.selectableCount };
  if (message.contacts) content.contacts = message.contacts;
  if (MEDIA_KINDS.has(message.type)) {
    const data = message.mediaData;
    content.media = {
      mimetype: message.mediaType,
      fileName: message.fileName ?? null,
      voice: message.voice === true,
      ...(data ? { size: data.length, sha256: createHash('sha256').update(data).digest('hex') } : {}),
    };
  }
  return Object.keys(content).length ? content : null;
}

export function createSandboxHandoffs(statements: Statements) {
  return {
    /** How many were handed over: all of them, or none when the lease is no longer current. */
    async handOff(instance: { id: string; phone: string }, messages: EngineMessage[], lease: Lease): Promise<number> {
      if (messages.length === 0) return 0;
      const [answer] = await statements.run<{ held: number }>(HAND_OFF, [
        instance.id,
        lease.node,
        lease.token,
        digits(instance.phone),
        // The bytes of an upload never go into the row: the phone keeps what it decoded of them.
        JSON.stringify(
          messages.map((message, ord) => ({
            ord,
            messageId: message.messageId,
            to: message.to,
            type: message.type,
            text: message.text,
            mediaUrl: message.mediaUrl,
            caption: message.caption,
            content: handedContent(message),
          })),
          withoutNulls,
        ),
      ]);
      return answer?.held ? messages.length : 0;
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
