import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db/database.js';

const NAME = 'media-links';

/**
 * The key every node signs media links with (docs/media.md, "Signed links"): 32 random bytes
 * in GatewaySecret, written by the first node to start; the others read that one.
 */
export async function mediaLinkKey(prisma: PrismaClient): Promise<Buffer> {
  await prisma.gatewaySecret.createMany({ data: [{ name: NAME, value: randomBytes(32) }], skipDuplicates: true });
  const row = await prisma.gatewaySecret.findUniqueOrThrow({ where: { name: NAME } });
  return Buffer.from(row.value);
}
