import type { PrismaClient } from '../db/database.js';
import { isUuid } from '../db/prisma-errors.js';

/** What a simulated phone received: the gateway's outbound messages to that number that went out. */
export function createPhoneInbox(prisma: PrismaClient) {
  return {
    async received(number: string) {
      const rows = await prisma.message.findMany({
        where: { to: number, direction: 'out', status: { in: ['sent', 'delivered', 'read'] } },
        orderBy: [{ sentAt: 'asc' }, { id: 'asc' }],
      });
      return rows.map((m) => ({
        id: m.id,
        from: m.from ?? '',
        type: m.type,
        text: m.text,
        ...(m.mediaUrl ? { mediaUrl: m.mediaUrl } : {}),
        ...(m.caption ? { caption: m.caption } : {}),
        receivedAt: (m.sentAt ?? m.createdAt).toISOString(),
      }));
    },
    async has(number: string, messageId: string) {
      if (!isUuid(messageId)) return false;
      return (await prisma.message.count({ where: { id: messageId, to: number, direction: 'out', status: { in: ['sent', 'delivered', 'read'] } } })) === 1;
    },
    /** Messages a phone received that were never confirmed delivered (the receipt was not stored). */
    async unconfirmed() {
      const rows = await prisma.message.findMany({ where: { direction: 'out', status: 'sent' }, select: { id: true }, take: 10_000 });
      return rows.map((row) => row.id);
    },
    /** Who deletes a message by default: its sender's phone digits. */
    async senderOf(messageId: string) {
      const message = isUuid(messageId) ? await prisma.message.findUnique({ where: { id: messageId }, select: { from: true } }) : null;
      return message?.from ?? '';
    },
  };
}

export type PhoneInbox = ReturnType<typeof createPhoneInbox>;
