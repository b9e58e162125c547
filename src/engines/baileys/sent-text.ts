import type { PrismaClient } from '../../infra/db/database.js';

/**
 * The text a retry receipt asks for once the library's own cache lost it (docs/engines.md, "Retries of
 * sent texts"): only texts, and never a message deleted for everyone.
 */
export function sentTextReader(prisma: PrismaClient) {
  return async (instanceId: string, networkMessageId: string): Promise<string | null> => {
    const message = await prisma.message.findUnique({
      where: { instanceId_networkMessageId: { instanceId, networkMessageId } },
      select: { text: true, type: true, direction: true, deletedAt: true },
    });
    return message?.direction === 'out' && message.type === 'text' && !message.deletedAt ? message.text : null;
  };
}

/** A poll an instance sent, by the network's id of it: the secret it was sent with and its options (to open votes on it). */
export function sentPollReader(prisma: PrismaClient) {
  return async (instanceId: string, networkMessageId: string): Promise<{ secret: Buffer; options: string[] } | null> => {
    const message = await prisma.message.findUnique({
      where: { instanceId_networkMessageId: { instanceId, networkMessageId } },
      select: { poll: true, pollSecret: true, direction: true },
    });
    if (message?.direction !== 'out' || !message.pollSecret || !message.poll) return null;
    const poll = message.poll as { options: Array<{ name: string }> };
    return { secret: Buffer.from(message.pollSecret), options: poll.options.map((option) => option.name) };
  };
}
