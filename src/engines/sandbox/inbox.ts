import type { PrismaClient } from '../../infra/db/database.js';
import { isUuid } from '../../infra/db/prisma-errors.js';
import type { HandedContent, HandedRef } from './handoffs.js';

/** A message another one names, as the phone shows it: the gateway's id of it (null when the gateway has none), and its text. */
interface ShownRef {
  messageId: string | null;
  text: string | null;
}

/**
 * What a simulated phone received: every hand-off of a message to its number (directly or in a group
 * it is in), in the order they happened, each with its kind's fields and what the sender did to it
 * since (edited, deleted for everyone); and the read marks and presence states instances told it.
 */
export function createPhoneInbox(prisma: PrismaClient) {
  /** Gateway ids of messages the network names by its own ids, per instance (a phone knows messages by the gateway's id). */
  async function gatewayIds(pairs: Array<{ instanceId: string; networkMessageId: string }>) {
    if (pairs.length === 0) return new Map<string, string>();
    const rows = await prisma.message.findMany({
      where: { instanceId: { in: [...new Set(pairs.map((p) => p.instanceId))] }, networkMessageId: { in: [...new Set(pairs.map((p) => p.networkMessageId))] } },
      select: { id: true, instanceId: true, networkMessageId: true },
    });
    return new Map(rows.map((row) => [`${row.instanceId}:${row.networkMessageId}`, row.id]));
  }

  return {
    async received(number: string) {
      const rows = await prisma.sandboxHandoff.findMany({ where: { to: number }, orderBy: [{ handedAt: 'asc' }, { id: 'asc' }] });
      const groupIds = [...new Set(rows.flatMap((row) => (row.group ? [row.group] : [])))];
      // What the senders did since: told to this phone, or to a group it received messages in.
      const signals = await prisma.sandboxSignal.findMany({ where: { to: { in: [number, ...groupIds] }, kind: { in: ['edit', 'delete'] } }, orderBy: [{ at: 'asc' }, { id: 'asc' }] });
      const subjects = new Map(
        (groupIds.length ? await prisma.sandboxGroup.findMany({ where: { id: { in: groupIds } }, select: { id: true, subject: true } }) : []).map((group) => [group.id, group.subject]),
      );
      const refs = rows.flatMap((row) => {
        const content = row.content as HandedContent | null;
        return [content?.quoted, content?.reaction?.target].filter((ref): ref is HandedRef => Boolean(ref)).map((ref) => ({ instanceId: row.instanceId, networkMessageId: ref.networkMessageId }));
      });
      const ids = await gatewayIds(refs);
      const shown = (instanceId: string, ref: HandedRef): ShownRef => ({ messageId: ids.get(`${instanceId}:${ref.networkMessageId}`) ?? null, text: ref.text });
      // A message the sandbox carried is known to it by the gateway's id: edits and deletes name it so.
      const edits = new Map<string, { text: string; at: string }>();
      const deletes = new Map<string, { at: string }>();
      for (const signal of signals) {
        const key = `${signal.instanceId}:${signal.networkMessageId}`;
        if (signal.kind === 'edit') edits.set(key, { text: signal.text ?? '', at: signal.at.toISOString() });
        else if (!deletes.has(key)) deletes.set(key, { at: signal.at.toISOString() });
      }
      return rows.map((m) => {
        const content = (m.content as HandedContent | null) ?? {};
        const key = `${m.instanceId}:${m.messageId}`;
        return {
          id: m.messageId,
          from: m.from,
          type: m.type,
          text: m.text,
          ...(m.mediaUrl ? { mediaUrl: m.mediaUrl } : {}),
          ...(m.caption ? { caption: m.caption } : {}),
          // Stored without its empty fields; shown with all of them.
          ...(content.media ? { media: { ...content.media, mimetype: content.media.mimetype ?? null, fileName: content.media.fileName ?? null, voice: content.media.voice ?? false } } : {}),
          ...(content.mentions ? { mentions: content.mentions } : {}),
          ...(content.quoted ? { quoted: shown(m.instanceId, content.quoted) } : {}),
          ...(content.reaction ? { reaction: { ...shown(m.instanceId, content.reaction.target), emoji: content.reaction.emoji } } : {}),
          ...(content.location ? { location: content.location } : {}),
          ...(content.contacts ? { contacts: content.contacts } : {}),
          ...(content.poll ? { poll: content.poll } : {}),
          ...(m.group ? { group: { id: m.group, subject: subjects.get(m.group) ?? null } } : {}),
          ...(edits.has(key) ? { edited: edits.get(key)! } : {}),
          ...(deletes.has(key) ? { deleted: deletes.get(key)! } : {}),
          receivedAt: m.handedAt.toISOString(),
        };
      });
    },
    /** The read marks instances put on messages this phone sent them, oldest first. */
    async reads(number: string) {
      const rows = await prisma.sandboxSignal.findMany({ where: { to: number, kind: 'read' }, orderBy: [{ at: 'asc' }, { id: 'asc' }] });
      const ids = await gatewayIds(rows.map((row) => ({ instanceId: row.instanceId, networkMessageId: row.networkMessageId ?? '' })));
      return rows.map((row) => ({ messageId: ids.get(`${row.instanceId}:${row.networkMessageId}`) ?? null, from: row.from, at: row.at.toISOString() }));
    },
    /** The presence states instances told this phone (typing, recording, stopped, online, away), oldest first. */
    async presence(number: string) {
      const rows = await prisma.sandboxSignal.findMany({ where: { to: number, kind: 'presence' }, orderBy: [{ at: 'asc' }, { id: 'asc' }] });
      return rows.map((row) => ({ from: row.from, state: row.state ?? '', at: row.at.toISOString() }));
    },
    /** What the phone's linked instances did to its chat list, oldest first. */
    async chatStates(number: string) {
      const rows = await prisma.sandboxSignal.findMany({ where: { to: number, kind: 'chat_state' }, orderBy: [{ at: 'asc' }, { id: 'asc' }] });
      return rows.map((row) => ({ chat: row.text ?? '', change: JSON.parse(row.state ?? '{}') as Record<string, unknown>, at: row.at.toISOString() }));
    },
    /** The blocks and unblocks the phone's linked instances made, oldest first. */
    async blocks(number: string) {
      const rows = await prisma.sandboxSignal.findMany({ where: { to: number, kind: 'block' }, orderBy: [{ at: 'asc' }, { id: 'asc' }] });
      return rows.map((row) => ({ phone: row.text ?? '', blocked: row.state === 'blocked', at: row.at.toISOString() }));
    },
    async has(number: string, messageId: string) {
      if (!isUuid(messageId)) return false;
      return (await prisma.sandboxHandoff.count({ where: { messageId, to: number } })) > 0;
    },
    /** Who deletes a message by default: its sender's phone digits. */
    async senderOf(messageId: string) {
      const message = isUuid(messageId) ? await prisma.message.findUnique({ where: { id: messageId }, select: { from: true } }) : null;
      return message?.from ?? '';
    },
  };
}

export type PhoneInbox = ReturnType<typeof createPhoneInbox>;
