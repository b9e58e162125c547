import { z } from 'zod';

/**
 * The gateway's one rule for a phone number a person or program gives it on its own endpoints
 * (pairing codes, the sandbox controls): digits with the country code first, 7-15 digits, written
 * with or without a leading `+`, with single spaces or dashes between digits ("+55 11 99999-0001",
 * "5511999990001"). The spec's own send keeps its stricter rule (PHONE_DIGITS). docs/rest.md has the
 * table of which field takes which form.
 */
export const WRITTEN_PHONE = /^\+?[1-9](?:[ -]?[0-9]){6,14}$/;

export const WRITTEN_PHONE_RULE = 'must be a phone number with the country code: 7-15 digits, + and single spaces or dashes allowed (+55 11 99999-0001)';

/** The digits of a phone number written by WRITTEN_PHONE; null when it is not one. */
export function phoneDigitsOf(written: string): string | null {
  return WRITTEN_PHONE.test(written) ? written.replace(/\D/g, '') : null;
}

/** A phone number as the gateway's own inputs take it; parsed to its digits. */
export const writtenPhone = z
  .string({ error: 'is required and must be a string' })
  .regex(WRITTEN_PHONE, WRITTEN_PHONE_RULE)
  .meta({ description: 'a phone number, country code first: digits, with or without + and single spaces or dashes', examples: ['+55 11 99999-0001'] })
  .transform((written) => written.replace(/\D/g, ''));

/** The same, as the instance's stored phone (+ and digits). */
export const writtenPhoneE164 = writtenPhone.transform((digits) => `+${digits}`);
