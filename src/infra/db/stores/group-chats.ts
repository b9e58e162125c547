import type { ConversationStore } from '../../../domain/conversations/conversations.ports.js';
import type { PrismaClient } from '../database.js';
import type { Outbox } from '../outbox.js';
import { CHAT_SELECT, type ChatRow, withLastMessages } from './chat-rows.js';

/** Group chats by the network's word: made when new, renamed when the subject changed, else untouched. */
const NAME_GROUPS = `
INSERT INTO "Chat" AS c ("instanceId", id, "tenantId", kind, subject, "activityAt", "updatedAt")
SELECT $1::uuid, id, $2::uuid, 'group', subject, coalesce(at, now()), now()
FROM jsonb_to_recordset($3::jsonb) AS t(id text, subject text, at timestamptz)
ON CONFLICT ("instanceId", id) DO UPDATE SET subject = excluded.subject, "updatedAt" = now()
WHERE c.subject IS DISTINCT FROM excluded.subject
RETURNING c.id, (xmax = 0) AS created`;

export function groupChats(prisma: PrismaClient, outbox: Outbox): Pick<ConversationStore, 'nameGroups'> {
  return {
    async nameGroups(instance, groups, events) {
      const named = [...new Map(groups.filter((g) => g.subject).map((g) => [g.id, g])).values()];
      await outbox.transaction(async (tx, emit) => {
        const touched = named.length
          ? await tx.$queryRawUnsafe<Array<{ id: string; created: boolean }>>(
              NAME_GROUPS,
              instance.id,
              instance.tenantId,
              JSON.stringify(named.map((g) => ({ id: g.id, subject: g.subject, at: g.at?.toISOString() ?? null }))),
            )
          : [];
        const rows = touched.length
          ? await tx.$queryRawUnsafe<ChatRow[]>(`${CHAT_SELECT} WHERE c."instanceId" = $1::uuid AND c.id = ANY($2::text[])`, instance.id, touched.map((t) => t.id))
          : [];
        const chats = await withLastMessages(tx, rows);
        const created = new Set(touched.filter((t) => t.created).map((t) => t.id));
        const told = events({ created: chats.filter((c) => created.has(c.id)), renamed: chats.filter((c) => !created.has(c.id)) });
        if (told.length) await emit({ tenantId: instance.tenantId, instanceId: instance.id }, told);
      });
    },
  };
}
