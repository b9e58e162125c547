import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { getMediaKeys, type MediaType } from 'baileys';

/** A file encrypted as the apps encrypt it, with the hashes and key a media message carries. */
export interface EncryptedMedia {
  mediaKey: Buffer;
  encrypted: Buffer;
  fileSha256: Buffer;
  fileEncSha256: Buffer;
  fileLength: number;
}

const MAC_LENGTH = 10;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

async function mediaKeys(mediaKey: Uint8Array, mediaType: MediaType) {
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, mediaType);
  return { iv, cipherKey, macKey: macKey! };
}

/** Media as the network's apps send it: AES-CBC with keys derived from a fresh media key, a 10-byte HMAC appended. */
export async function encryptMedia(bytes: Buffer, mediaType: MediaType): Promise<EncryptedMedia> {
  const mediaKey = randomBytes(32);
  const { iv, cipherKey, macKey } = await mediaKeys(mediaKey, mediaType);
  const aes = createCipheriv('aes-256-cbc', cipherKey, iv);
  const ciphertext = Buffer.concat([aes.update(bytes), aes.final()]);
  const mac = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, MAC_LENGTH);
  const encrypted = Buffer.concat([ciphertext, mac]);
  return { mediaKey, encrypted, fileSha256: sha256(bytes), fileEncSha256: sha256(encrypted), fileLength: bytes.length };
}

/** The receiving side: checks the MAC before decrypting, as a phone does, and the hashes when given. */
export async function decryptMedia(
  encrypted: Buffer,
  mediaKey: Uint8Array,
  mediaType: MediaType,
  expected: { fileSha256?: Uint8Array | null; fileEncSha256?: Uint8Array | null } = {},
): Promise<Buffer> {
  if (expected.fileEncSha256?.length && !sha256(encrypted).equals(Buffer.from(expected.fileEncSha256))) {
    throw new Error('encrypted media does not match fileEncSha256');
  }
  const { iv, cipherKey, macKey } = await mediaKeys(mediaKey, mediaType);
  const ciphertext = encrypted.subarray(0, encrypted.length - MAC_LENGTH);
  const mac = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, MAC_LENGTH);
  if (!mac.equals(encrypted.subarray(encrypted.length - MAC_LENGTH))) throw new Error('media MAC mismatch');
  const aes = createDecipheriv('aes-256-cbc', cipherKey, iv);
  const plaintext = Buffer.concat([aes.update(ciphertext), aes.final()]);
  if (expected.fileSha256?.length && !sha256(plaintext).equals(Buffer.from(expected.fileSha256))) {
    throw new Error('decrypted media does not match fileSha256');
  }
  return plaintext;
}
