import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mediaTooLarge } from '../../domain/media/media-store.port.js';

/**
 * Writes `bytes` to the private file `draft` while hashing them: every store names an object by its
 * SHA-256, which is known only once the last byte is in. More than `maxBytes` stops the write.
 */
export async function writeHashedDraft(bytes: AsyncIterable<Uint8Array>, draft: string, maxBytes: number, options: { flush?: boolean } = {}) {
  const hash = createHash('sha256');
  let size = 0;
  const counted = async function* () {
    for await (const chunk of bytes) {
      size += chunk.length;
      if (size > maxBytes) throw mediaTooLarge(maxBytes);
      hash.update(chunk);
      yield chunk;
    }
  };
  await pipeline(Readable.from(counted()), createWriteStream(draft, { mode: 0o600, flush: options.flush ?? false }));
  return { sha256: hash.digest('hex'), size };
}
