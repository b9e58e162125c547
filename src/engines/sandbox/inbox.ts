import type { PrismaClient } from '../../infra/db/database.js';
import { isUuid } from '../../infra/db/prisma-errors.js';

/** What a simulated phone received: every hand-off of a message to its number, in the order they happened. */
export function createPhoneInbox(prisma: PrismaClient) {
  return {
    async received(number: string) {
      const rows = await prisma.sandboxHandoff.findMany({ where: { to: number }, orderBy: [{ handedAt: 'asc' }, { id: 'asc' }] });
      return rows.map((m) => ({
        id: m.messageId,
        from: m.from,
        type: m.type,
        text: m.text,
        ...(m.mediaUrl ? { mediaUrl: m.mediaUrl } : {}),
        ...(m.caption ? { caption: m.caption } : {}),
        receivedAt: m.handedAt.toISOString(),
      }));
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
