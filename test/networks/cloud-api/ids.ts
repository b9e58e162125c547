// Identifiers shaped like the network's, so a gateway that stores or parses them meets realistic values.
import { randomBytes, randomInt } from 'node:crypto';

/**
 * `wamid.` + base64 of a small binary record naming the recipient, as real ids are (`wamid.HBgL…` for an
 * 11-digit number): base64 with `+`, `/` and `=` included, which a gateway must keep byte for byte.
 */
export function newWamid(waId: string): string {
  const digits = Buffer.from(waId, 'ascii');
  const tail = Buffer.from(randomBytes(9).toString('hex').toUpperCase(), 'ascii');
  const record = Buffer.concat([
    Buffer.from([0x1c, 0x18, digits.length]),
    digits,
    Buffer.from([0x15, 0x02, 0x00, 0x11, 0x18, tail.length]),
    tail,
    Buffer.from([0x00]),
  ]);
  return `wamid.${record.toString('base64')}`;
}

/** Numeric ids (media, WABA): 15–16 digits, never starting with 0. */
export function numericId(length = 16): string {
  let id = String(randomInt(1, 10));
  while (id.length < length) id += String(randomInt(0, 10));
  return id;
}

/** `fbtrace_id`: an opaque 23-character support id. */
export function fbtraceId(): string {
  return `A${randomBytes(17).toString('base64url').slice(0, 22)}`;
}

/** The number sent as `hub.challenge` when verifying a webhook. */
export function challengeValue(): string {
  return String(randomInt(1_000_000_000, 2_000_000_000));
}

/** Conversation ids in status webhooks: 32 hex digits. */
export function conversationId(): string {
  return randomBytes(16).toString('hex');
}

/** Unix seconds as the string the network sends in `timestamp` fields. */
export function unixSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}
