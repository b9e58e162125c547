import { z } from 'zod';

/**
 * A phone written for the gateway's own endpoints: 7-15 digits, country code first, with or without `+`
 * and single spaces or dashes ("+55 11 99999-0001"); the spec's send keeps its stricter PHONE_DIGITS
 * (docs/rest.md, "Phone numbers", has which field takes which form).
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

/** A stored phone as bare digits ('' for none), as events and the network's ids write it. */
export const digits = (phone: string | null) => (phone ?? '').replace(/\D/g, '');
