import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Format version of a sealed value: 1 = AES-256-GCM, 12-byte IV, 16-byte tag. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type StateCipher = ReturnType<typeof createStateCipher>;

/**
 * What real engines keep in the database (a linked device's keys, an API's credentials) is sealed
 * with ENGINE_STATE_KEY: AES-256-GCM, each value bound to its place (`where`, e.g. the instance, the
 * kind and the id of the key) so a value copied into another row does not open there.
 */
export function createStateCipher(key: Buffer) {
  if (key.length !== 32) throw new Error('the engine state key must be 32 bytes');
  return {
    seal(plaintext: Buffer, where: string): Buffer {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(where));
      const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), sealed]);
    },
    /** Throws when the value was sealed with another key, for another place, or was changed. */
    open(sealed: Uint8Array, where: string): Buffer {
      const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
      if (bytes[0] !== VERSION || bytes.length < 1 + IV_BYTES + TAG_BYTES) throw new Error('not a sealed engine state value');
      const iv = bytes.subarray(1, 1 + IV_BYTES);
      const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(where));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}
