/**
 * An instance's past written straight into its database: chats, their messages and contacts, through the
 * project's own database module, before the gateway starts (docs/benchmarks.md, "Each benchmark in detail").
 */
import { openDatabase } from '../../src/infra/db/database.js';
import { messageCursor } from '../../src/domain/conversations/cursors.js';

export interface SeedShape {
  /** Chats of the instance, the deep one included. */
  chats: number;
  /** Messages of the instance, the deep chat's included. */
  messages: number;
  /** Messages of the one deep chat. */
  deep: number;
}

/** The deep chat's id: a direct chat, the peer's digits. */
export const DEEP_CHAT = '5511000000000';

export interface Seeded {
  /** The cursor of the message halfway down the deep chat: a page before it is deep in the chat. */
  deepCursor: string;
  seconds: number;
}

/** Rows a statement inserts at most (a long statement on the embedded thread holds every other one). */
const CHUNK = 100_000;

/**
 * Message g (1-based): the first `deep` go to the deep chat, one every 5 minutes up to now; the rest round
 * the other chats, one every 30 seconds up to now. One in 20 chats is a group; a third of the messages are sent.
 * Ids are UUIDv7 of the message's time, as the gateway writes them (src/infra/db/row-id.ts).
 */
const MESSAGES = `
  INSERT INTO "Message" (id, "tenantId", "instanceId", direction, "networkMessageId", "to", "from", type, text, "group",
                         status, mode, "chatId", "deliveredAt", "createdAt", "updatedAt")
  SELECT overlay(overlay(overlay(md5('seed' || g) placing lpad(to_hex((extract(epoch FROM m.at) * 1000)::bigint), 12, '0') from 1 for 12)
                 placing '7' from 13 for 1) placing '8' from 17 for 1)::uuid,
         $2::uuid, $1::uuid, m.dir::"MessageDirection", 'SEED' || g,
         CASE WHEN m.dir = 'out' THEN m.chat ELSE $3 END,
         CASE WHEN m.dir = 'out' THEN $3 WHEN m.chat LIKE '%@g.us' THEN '55119' || lpad((g % 997)::text, 8, '0') ELSE m.chat END,
         'text', 'seeded message number ' || g || ', long enough to look like a line of chat',
         CASE WHEN m.chat LIKE '%@g.us' THEN jsonb_build_object('id', m.chat, 'subject', 'Group ' || m.chat) END,
         CASE WHEN m.dir = 'out' THEN 'read' ELSE 'delivered' END::"MessageStatus", 'production'::"MessageMode",
         m.chat, m.at, m.at, m.at
  FROM generate_series($4::int, $5::int) g,
  LATERAL (SELECT
    CASE WHEN g <= $6 THEN '${DEEP_CHAT}'
         ELSE (SELECT CASE WHEN c % 20 = 0 THEN '120363' || lpad(c::text, 12, '0') || '@g.us' ELSE '55119' || lpad(c::text, 8, '0') END
               FROM (SELECT 1 + (g - $6 - 1) % ($7 - 1) AS c) x) END AS chat,
    CASE WHEN g <= $6 THEN now() - ($6 - g) * interval '5 minutes'
         ELSE now() - ($8 - g) * interval '30 seconds' END AS at,
    CASE WHEN g % 3 = 0 THEN 'out' ELSE 'in' END AS dir) m`;

/** Each chat from its newest message; about 3 pinned (a phone pins at most 3), some archived, unread or muted. */
const CHATS = `
  INSERT INTO "Chat" ("instanceId", id, "tenantId", kind, subject, "lastMessageId", "activityAt", "unreadCount", archived, pinned, "mutedUntil", "createdAt", "updatedAt")
  SELECT "instanceId", "chatId", "tenantId",
         CASE WHEN "chatId" LIKE '%@g.us' THEN 'group' ELSE 'direct' END::"ChatKind",
         CASE WHEN "chatId" LIKE '%@g.us' THEN 'Group ' || "chatId" END,
         id, "createdAt", (n % 7) * (n % 2), n % 3333 = 1, n % 20 = 3, CASE WHEN n % 40 = 5 THEN now() + interval '8 hours' END,
         "createdAt", "createdAt"
  FROM (SELECT DISTINCT ON ("chatId") "instanceId", "chatId", "tenantId", id, "createdAt", abs(hashtext("chatId")) AS n
        FROM "Message" WHERE "instanceId" = $1::uuid AND "chatId" IS NOT NULL
        ORDER BY "chatId", "createdAt" DESC, id DESC) newest`;

/** A contact for each direct chat; two in three with a saved name. */
const CONTACTS = `
  INSERT INTO "Contact" ("instanceId", id, "tenantId", phone, name, "pushName", "onNetwork", "updatedAt")
  SELECT "instanceId", id, "tenantId", id, CASE WHEN abs(hashtext(id)) % 3 > 0 THEN 'Saved ' || id END, 'Push ' || id, true, now()
  FROM "Chat" WHERE "instanceId" = $1::uuid AND kind = 'direct'`;

/**
 * Writes the shape's chats, messages and contacts for the instance (which the gateway made and paired, so its
 * tenant and phone are its own). PostgreSQL with `databaseUrl`, else the embedded folder `dataDir`, closed again after.
 */
export async function seedConversations(
  where: { databaseUrl?: string; dataDir: string },
  instance: { id: string; phone: string },
  shape: SeedShape,
  progress: (line: string) => void = () => {},
): Promise<Seeded> {
  const started = performance.now();
  const db = openDatabase({ ...where, timeouts: { connectMs: 5000, statementMs: 3_600_000, transactionMs: 3_600_000 } });
  try {
    const phone = instance.phone.replace(/^\+/, '');
    const [{ tenantId }] = (await db.statements.run<{ tenantId: string }>(`SELECT "tenantId" FROM "Instance" WHERE id = $1::uuid`, [instance.id])) as [{ tenantId: string }];
    for (let from = 1; from <= shape.messages; from += CHUNK) {
      const to = Math.min(shape.messages, from + CHUNK - 1);
      await db.statements.run(MESSAGES, [instance.id, tenantId, phone, from, to, shape.deep, shape.chats, shape.messages]);
      progress(`${to} of ${shape.messages} messages`);
    }
    await db.statements.run(CHATS, [instance.id]);
    await db.statements.run(CONTACTS, [instance.id]);
    for (const table of ['Message', 'Chat', 'Contact']) await db.statements.run(`ANALYZE "${table}"`);
    const [middle] = await db.statements.run<{ createdAt: Date; id: string }>(
      `SELECT "createdAt", id FROM "Message" WHERE "instanceId" = $1::uuid AND "chatId" = $2 ORDER BY "createdAt" DESC, id DESC OFFSET $3 LIMIT 1`,
      [instance.id, DEEP_CHAT, Math.floor(shape.deep / 2)],
    );
    return { deepCursor: messageCursor(middle!), seconds: (performance.now() - started) / 1000 };
  } finally {
    await db.close();
  }
}

/** EXPLAIN ANALYZE of a statement on the seeded database (a goal missed says where its time goes). */
export async function explain(where: { databaseUrl?: string; dataDir: string }, sql: string, params: unknown[]): Promise<string> {
  const db = openDatabase(where);
  try {
    const rows = await db.statements.run<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    return rows.map((row) => Object.values(row)[0]).join('\n');
  } finally {
    await db.close();
  }
}
