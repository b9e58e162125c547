import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

// `mgw_live_` / `mgw_test_` + 32 random base62 characters + a 6-character CRC32 checksum, as GitHub
// tokens do: the prefix lets secret scanners find leaked keys, the checksum lets us reject a
// mistyped or made-up key without touching the database.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const PREFIX = { live: 'mgw_live_', test: 'mgw_test_' } as const;
const KEY_PATTERN = /^mgw_(live|test)_([0-9A-Za-z]{38,})$/;
export const DISPLAY_PREFIX_LENGTH = 12;

function base62(value: number, width: number): string {
  let out = '';
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = ALPHABET[v % 62] + out;
  return out.padStart(width, '0');
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export interface NewApiKey {
  key: string;
  keyHash: string;
  keyPrefix: string;
}

export function generateApiKey(testMode: boolean): NewApiKey {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)];
  const body = (testMode ? PREFIX.test : PREFIX.live) + random;
  const key = body + checksum(body);
  return { key, keyHash: hashApiKey(key), keyPrefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Format and checksum only: true means the key may exist, false means it cannot. */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length > 200) return false;
  const match = KEY_PATTERN.exec(key);
  if (!match) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  const expected = Buffer.from(checksum(body));
  const given = Buffer.from(key.slice(-CHECKSUM_LENGTH));
  return timingSafeEqual(expected, given);
}

export function hashApiKey(key: string): string {
  // One-shot: no Hash object per request (every authenticated request hashes its key).
  return hash('sha256', key, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
