import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../infra/db/database.js';
import { isUuid } from '../../infra/db/prisma-errors.js';
import { PAST_PICTURE } from './pictures.js';
import { type MediaContent, MediaExpired, type MediaSource } from '../../domain/media/media-source.js';

/**
 * The simulated network's media host: files its phones send are kept in the gateway's database (so
 * every node serves them), until the network lets one expire.
 */
export function createSandboxMedia(prisma: PrismaClient) {
  const source: MediaSource = {
    async open(descriptor): Promise<MediaContent> {
      // An image of a phone's past is the network's stock picture, kept nowhere.
      if ((descriptor.source as { past?: unknown } | null)?.past === 'picture') return { bytes: (async function* () { yield PAST_PICTURE.bytes; })(), size: PAST_PICTURE.bytes.length };
      const id = (descriptor.source as { id?: unknown } | null)?.id;
      const row = typeof id === 'string' && isUuid(id) ? await prisma.sandboxMedia.findUnique({ where: { id } }) : null;
      if (!row || row.expiredAt) throw new MediaExpired();
      const bytes = Buffer.from(row.bytes);
      return { bytes: (async function* () { yield bytes; })(), size: bytes.length };
    },
  };
  return {
    source,
    /** Keeps a file a phone sends; the descriptor's source names it. */
    async put(bytes: Buffer, mimetype: string): Promise<{ id: string }> {
      const id = randomUUID();
      await prisma.sandboxMedia.create({ data: { id, bytes: new Uint8Array(bytes), mimetype } });
      return { id };
    },
    /** The network stops serving the file of a received message (its retention ended); false when it has none. */
    async expire(messageId: string): Promise<boolean> {
      if (!isUuid(messageId)) return false;
      const message = await prisma.message.findUnique({ where: { id: messageId }, select: { media: true, direction: true } });
      const id = (message?.media as { source?: { id?: string } } | null)?.source?.id;
      if (message?.direction !== 'in' || typeof id !== 'string') return false;
      await prisma.sandboxMedia.updateMany({ where: { id, expiredAt: null }, data: { expiredAt: new Date() } });
      return true;
    },
  };
}

export type SandboxMedia = ReturnType<typeof createSandboxMedia>;
