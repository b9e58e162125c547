import { createHash } from 'node:crypto';
import { jidDecode, jidEncode } from 'baileys';
import { badRequest } from '../errors.js';

export const SERVER_JID = 's.whatsapp.net';

/** How a stanza names a user: by phone number (`@s.whatsapp.net`) or by LID (`@lid`). */
export type Addressing = 'pn' | 'lid';

export interface UserJid {
  user: string;
  addressing: Addressing;
  device: number;
}

/** Accepts what people type (`+49 151 2345-678`, `4915123456789`) and gives the digits a jid carries. */
export function normalizePhone(input: string): string {
  const digits = input.trim().replace(/^\+/, '').replace(/[\s().-]/g, '');
  if (!/^\d{6,15}$/.test(digits)) {
    throw badRequest('invalid_phone', `"${input}" is not a phone number (6 to 15 digits, optionally with a leading +)`);
  }
  return digits;
}

/**
 * The LID of a phone number: stable for the number, so a restarted network gives a device the same
 * LID it stored, and never equal to the number itself (clients treat the two as different users).
 */
export function lidForPhone(phone: string): string {
  const hash = createHash('sha256').update(`chat-network-lid:${phone}`).digest();
  const lid = ((hash.readBigUInt64BE(0) % 900_000_000_000_000n) + 100_000_000_000_000n).toString();
  return lid === phone ? `${lid.slice(0, -1)}${(Number(lid.at(-1)) + 1) % 10}` : lid;
}

export function userJid(user: string, addressing: Addressing, device = 0): string {
  return jidEncode(user, addressing === 'lid' ? 'lid' : SERVER_JID, device || undefined);
}

export function parseUserJid(jid: string | undefined): UserJid | undefined {
  const decoded = jidDecode(jid);
  if (!decoded?.user) return undefined;
  if (decoded.server !== SERVER_JID && decoded.server !== 'lid' && decoded.server !== 'c.us') return undefined;
  return { user: decoded.user, addressing: decoded.server === 'lid' ? 'lid' : 'pn', device: decoded.device ?? 0 };
}

export const unixSeconds = (at = Date.now()) => `${Math.floor(at / 1000)}`;
