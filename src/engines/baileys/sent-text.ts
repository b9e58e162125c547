import type { PrismaClient } from '../../infra/db/database.js';

/**
 * The text of a text message an instance sent, by the network's id of it: what a retry receipt asks
 * to be sent again once the library's own cache of the connection's recent sends no longer has it (a
 * reconnect or a restart, or more than 512 sends since). Nothing for any other kind: a photo's caption
 * sent again would arrive as a text in its place, and the library sends nothing rather than that.
 * Nothing for a message deleted for everyone either: its text must not reach the phone again.
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
