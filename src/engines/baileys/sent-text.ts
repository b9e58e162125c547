import type { PrismaClient } from '../../infra/db/database.js';

/** The text of a message an instance sent, by the network's id of it: what a retry receipt asks to be sent again. */
export function sentTextReader(prisma: PrismaClient) {
  return async (instanceId: string, networkMessageId: string): Promise<string | null> => {
    const message = await prisma.message.findUnique({
      where: { instanceId_networkMessageId: { instanceId, networkMessageId } },
      select: { text: true, caption: true, direction: true },
    });
    return message?.direction === 'out' ? (message.text ?? message.caption) : null;
  };
}
