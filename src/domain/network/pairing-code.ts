import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { writtenPhoneE164 } from '../phone.js';

/** The network's pairing-code alphabet: no 0, I, O or U, so a code read aloud or typed is unambiguous. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ';

/** A new pairing code: 8 characters (40 random bits), as the phone asks for them. */
export function newPairingCode(): string {
  let bits = 0n;
  for (const byte of randomBytes(5)) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let shift = 35n; shift >= 0n; shift -= 5n) code += ALPHABET[Number((bits >> shift) & 31n)];
  return code;
}

/** A code as a person types it: any case, spaces and a dash between the halves allowed. */
export function normalPairingCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

export const pairingCodeInput = z.object({
  /** The number to link; kept as + and digits, as the instance's phone. */
  phone: writtenPhoneE164,
});
