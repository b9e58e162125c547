import type { ChatRecord, ContactRecord, ConversationStore } from '../../../domain/conversations/conversations.ports.js';
import { lidChatId } from '../../../domain/conversations/chat-id.js';
import { digits } from '../../../domain/phone.js';
import type { ContactInfo } from '../../../domain/network/engine-history.js';
import type { PrismaClient } from '../database.js';
import type { Outbox } from '../outbox.js';
import { readChat, type RawClient } from './chat-rows.js';
import { likePattern } from './like-pattern.js';

const CONTACT_COLUMNS = `"instanceId"::text AS "instanceId", "tenantId"::text AS "tenantId", id, phone, lid, name, "pushName", "onNetwork", business, about, blocked, "pictureUrl", "profileExpiresAt", "updatedAt"`;

/**
 * Stores people in bulk: a known field is kept when the network sends none. Only rows that changed
 * answer, each saying whether it is new.
 */
const SAVE_CONTACTS = `
INSERT INTO "Contact" AS k ("instanceId", id, "tenantId", phone, lid, name, "pushName", business, "updatedAt")
SELECT $1::uuid, id, $2::uuid, phone, lid, name, "pushName", coalesce(business, false), now()
FROM jsonb_to_recordset($3::jsonb) AS t(id text, phone text, lid text, name text, "pushName" text, business boolean)
ON CONFLICT ("instanceId", id) DO UPDATE SET
  phone = coalesce(excluded.phone, k.phone), lid = coalesce(excluded.lid, k.lid), name = coalesce(excluded.name, k.name),
  "pushName" = coalesce(excluded."pushName", k."pushName"), business = excluded.business OR k.business, "updatedAt" = now()
WHERE (k.phone, k.lid, k.name, k."pushName", k.business) IS DISTINCT FROM
      (coalesce(excluded.phone, k.phone), coalesce(excluded.lid, k.lid), coalesce(excluded.name, k.name), coalesce(excluded."pushName", k."pushName"), excluded.business OR k.business)
RETURNING ${CONTACT_COLUMNS}, (xmax = 0) AS created`;

/** A LID's contact row becomes its phone's (merged into it when both exist). */
const MOVE_CONTACT = `
WITH old AS (DELETE FROM "Contact" WHERE "instanceId" = $1::uuid AND id = $2 RETURNING *)
INSERT INTO "Contact" AS k ("instanceId", id, "tenantId", phone, lid, name, "pushName", "onNetwork", business, about, blocked, "pictureUrl", "profileExpiresAt", "createdAt", "updatedAt")
SELECT "instanceId", $3, "tenantId", $3, lid, name, "pushName", "onNetwork", business, about, blocked, "pictureUrl", "profileExpiresAt", "createdAt", now() FROM old
ON CONFLICT ("instanceId", id) DO UPDATE SET
  lid = coalesce(k.lid, excluded.lid), name = coalesce(k.name, excluded.name), "pushName" = coalesce(k."pushName", excluded."pushName"), "updatedAt" = now()`;

/** A LID's chat becomes its phone's: messages move, counts add up, the newer last message stays. */
const MOVE_CHAT = `
WITH old AS (DELETE FROM "Chat" WHERE "instanceId" = $1::uuid AND id = $2 RETURNING *)
INSERT INTO "Chat" AS c ("instanceId", id, "tenantId", kind, subject, "lastMessageId", "activityAt", "unreadCount", archived, pinned, "mutedUntil", "createdAt", "updatedAt")
SELECT "instanceId", $3, "tenantId", kind, subject, "lastMessageId", "activityAt", "unreadCount", archived, pinned, "mutedUntil", "createdAt", now() FROM old
ON CONFLICT ("instanceId", id) DO UPDATE SET
  "lastMessageId" = CASE WHEN excluded."activityAt" > c."activityAt" THEN excluded."lastMessageId" ELSE c."lastMessageId" END,
  "activityAt" = GREATEST(c."activityAt", excluded."activityAt"),
  "unreadCount" = c."unreadCount" + excluded."unreadCount",
  archived = c.archived AND excluded.archived, pinned = c.pinned OR excluded.pinned,
  "mutedUntil" = GREATEST(c."mutedUntil", excluded."mutedUntil"), "updatedAt" = now()
RETURNING c.id`;

const MOVE_MESSAGES = `
UPDATE "Message" SET "chatId" = CASE WHEN "chatId" = $2 THEN $3 ELSE "chatId" END,
                     "from" = CASE WHEN direction = 'in' AND "from" IS NULL AND "fromLid" = $4 THEN $3 ELSE "from" END
WHERE "instanceId" = $1::uuid AND ("chatId" = $2 OR ("fromLid" = $4 AND "from" IS NULL))`;

type ContactRow = ContactRecord & { created?: boolean };

/** A LID's contact and chat, once its phone number is known: moved under the phone's. The chat it moved to. */
async function mergeLid(tx: RawClient, instanceId: string, lid: string, phone: string): Promise<{ lidChat: string; chat: ChatRecord } | null> {
  const lidId = lidChatId(lid);
  await tx.$executeRawUnsafe(MOVE_CONTACT, instanceId, lidId, phone);
  await tx.$executeRawUnsafe(MOVE_MESSAGES, instanceId, lidId, phone, digits(lid));
  const moved = await tx.$queryRawUnsafe<Array<{ id: string }>>(MOVE_CHAT, instanceId, lidId, phone);
  if (!moved.length) return null;
  return { lidChat: lidId, chat: (await readChat(tx, instanceId, phone))! };
}

const contactRow = (info: ContactInfo) => {
  const phone = info.phone ? digits(info.phone) : null;
  const lid = info.lid ? digits(info.lid) : null;
  return { id: phone ?? lidChatId(lid!), phone, lid, name: info.name ?? null, pushName: info.pushName ?? null, business: info.business ?? null };
};

export function contactStatements(prisma: PrismaClient, outbox: Outbox): Pick<ConversationStore, 'listContacts' | 'countContacts' | 'findContact' | 'saveContacts' | 'saveProfile' | 'setBlocked' | 'saveOnNetwork'> {
  async function contactOf(client: RawClient, instanceId: string, id: string) {
    const [row] = await client.$queryRawUnsafe<ContactRecord[]>(`SELECT ${CONTACT_COLUMNS} FROM "Contact" WHERE "instanceId" = $1::uuid AND id = $2`, instanceId, id);
    return row ?? null;
  }

  return {
    async listContacts(instanceId, { after, limit, search }) {
      const params: unknown[] = [instanceId, limit];
      let where = '';
      if (after !== null) {
        params.push(after);
        where += ` AND id > $${params.length}`;
      }
      if (search) {
        params.push(likePattern(search));
        where += ` AND (name ILIKE $${params.length} OR "pushName" ILIKE $${params.length} OR id LIKE $${params.length})`;
      }
      return prisma.$queryRawUnsafe<ContactRecord[]>(`SELECT ${CONTACT_COLUMNS} FROM "Contact" WHERE "instanceId" = $1::uuid ${where} ORDER BY id LIMIT $2`, ...params);
    },

    async countContacts(instanceId, { search }) {
      const params: unknown[] = [instanceId];
      const where = search ? ` AND (name ILIKE $2 OR "pushName" ILIKE $2 OR id LIKE $2)` : '';
      if (search) params.push(likePattern(search));
      const [row] = await prisma.$queryRawUnsafe<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM "Contact" WHERE "instanceId" = $1::uuid ${where}`, ...params);
      return row?.count ?? 0;
    },

    findContact: (instanceId, id) => contactOf(prisma, instanceId, id),

    async saveContacts(instance, contacts, events) {
      // One row per person: what several entries say of one is taken together, the later one winning.
      const byId = new Map<string, ReturnType<typeof contactRow>>();
      for (const row of contacts.filter((c) => c.phone || c.lid).map(contactRow)) {
        const known = byId.get(row.id);
        byId.set(row.id, known ? { ...known, ...Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) } : row);
      }
      const rows = [...byId.values()];
      if (rows.length === 0) return;
      await outbox.transaction(async (tx, emit) => {
        const merged = [];
        for (const row of rows) {
          if (!row.phone || !row.lid) continue;
          const moved = await mergeLid(tx, instance.id, row.lid, row.phone);
          if (moved) merged.push(moved);
        }
        const saved = await tx.$queryRawUnsafe<ContactRow[]>(SAVE_CONTACTS, instance.id, instance.tenantId, JSON.stringify(rows));
        const plain = ({ created: _, ...row }: ContactRow): ContactRecord => row;
        const created = saved.filter((row) => row.created).map(plain);
        const changed = saved.filter((row) => !row.created).map(plain);
        const told = events({ created, changed, merged });
        if (told.length) await emit({ tenantId: instance.tenantId, instanceId: instance.id }, told);
      });
    },

    async saveProfile(instance, phone, profile, expiresAt) {
      const [row] = await prisma.$queryRawUnsafe<ContactRecord[]>(
        `INSERT INTO "Contact" AS k ("instanceId", id, "tenantId", phone, about, "pictureUrl", business, "onNetwork", "profileExpiresAt", "updatedAt")
         VALUES ($1::uuid, $2, $3::uuid, $2, $4, $5, $6, $7, $8, now())
         ON CONFLICT ("instanceId", id) DO UPDATE SET about = excluded.about, "pictureUrl" = excluded."pictureUrl", business = excluded.business,
           "onNetwork" = excluded."onNetwork", "profileExpiresAt" = excluded."profileExpiresAt", "updatedAt" = now()
         RETURNING ${CONTACT_COLUMNS}`,
        instance.id,
        phone,
        instance.tenantId,
        profile.about,
        profile.pictureUrl,
        profile.business,
        profile.onNetwork,
        expiresAt,
      );
      return row!;
    },

    async saveOnNetwork(instance, phone, onNetwork) {
      await prisma.$executeRawUnsafe(
        `INSERT INTO "Contact" AS k ("instanceId", id, "tenantId", phone, "onNetwork", "updatedAt") VALUES ($1::uuid, $2, $3::uuid, $2, $4, now())
         ON CONFLICT ("instanceId", id) DO UPDATE SET "onNetwork" = excluded."onNetwork", "updatedAt" = now()`,
        instance.id,
        phone,
        instance.tenantId,
        onNetwork,
      );
    },

    async setBlocked(instance, phone, blocked, events) {
      return outbox.transaction(async (tx, emit) => {
        const [row] = await tx.$queryRawUnsafe<ContactRecord[]>(
          `INSERT INTO "Contact" AS k ("instanceId", id, "tenantId", phone, blocked, "updatedAt") VALUES ($1::uuid, $2, $3::uuid, $2, $4, now())
           ON CONFLICT ("instanceId", id) DO UPDATE SET blocked = excluded.blocked, "updatedAt" = now()
           RETURNING ${CONTACT_COLUMNS}`,
          instance.id,
          phone,
          instance.tenantId,
          blocked,
        );
        await emit({ tenantId: instance.tenantId, instanceId: instance.id }, events(row!));
        return row!;
      });
    },
  };
}
