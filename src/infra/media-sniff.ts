import { fileTypeFromBuffer } from 'file-type';

/**
 * The content type a file's bytes show (its magic numbers and container headers, read by `file-type`),
 * or null when they show none it knows: HTML, text and random bytes alike. Ogg/Opus is
 * `audio/ogg; codecs=opus`.
 */
export async function sniffMediaType(bytes: Uint8Array): Promise<string | null> {
  try {
    return (await fileTypeFromBuffer(bytes))?.mime ?? null;
  } catch {
    // A container cut short or malformed is not a file of that type.
    return null;
  }
}
