// Registered business numbers and the access tokens that may act for them.
import { expiredToken, invalidToken, type ApiError } from './errors.js';
import { numericId } from './ids.js';
import type { AddNumber } from './types.js';

export interface BusinessNumber {
  phoneNumberId: string;
  displayPhoneNumber: string;
  accessToken: string;
  appSecret: string;
  businessAccountId: string;
  verifiedName: string;
  mpsLimit?: number;
  /** The business profile (`/<phone-number-id>/whatsapp_business_profile`), as the business set it. */
  profile: BusinessProfile;
}

/** The fields of a business profile this API keeps (the reference lists more: address, email, websites…). */
export interface BusinessProfile {
  about: string;
  description: string;
  /** Set by the business through an upload handle in the real API; by the control API here. */
  profilePictureUrl: string | null;
}

// Country codes of two digits; the rest of the world (bar 1 and 7) uses three. Only used to print the
// number the way `GET /<phone-number-id>` does ("+1 631-555-5555"), never to route anything.
const TWO_DIGIT_CODES = new Set([
  '20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49', '51', '52', '53',
  '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86', '90', '91', '92', '93', '94',
  '95', '98',
]);

/** `15550783881` → `+1 555-078-3881`; `5511912345678` → `+55 11 91234-5678`. */
export function formatPhone(digits: string): string {
  if (digits.length === 11 && digits.startsWith('1')) return `+1 ${digits.slice(1, 4)}-${digits.slice(4, 7)}-${digits.slice(7)}`;
  const ccLength = digits.startsWith('7') ? 1 : TWO_DIGIT_CODES.has(digits.slice(0, 2)) ? 2 : 3;
  const rest = digits.slice(ccLength);
  if (rest.length <= 6) return `+${digits.slice(0, ccLength)} ${rest}`;
  return `+${digits.slice(0, ccLength)} ${rest.slice(0, 2)} ${rest.slice(2, -4)}-${rest.slice(-4)}`;
}

export class Numbers {
  private readonly byId = new Map<string, BusinessNumber>();
  /** Tokens that were expired, with when; they answer 190/463 instead of "cannot parse". */
  private readonly expired = new Map<string, number>();

  add(input: AddNumber): BusinessNumber {
    if (!/^\d+$/.test(input.phoneNumberId)) throw new Error('phoneNumberId must be digits');
    if (!/^\d{5,15}$/.test(input.displayPhoneNumber)) throw new Error('displayPhoneNumber must be 5 to 15 digits');
    if (!input.accessToken || !input.appSecret) throw new Error('accessToken and appSecret are required');
    const previous = this.byId.get(input.phoneNumberId);
    const number: BusinessNumber = {
      phoneNumberId: input.phoneNumberId,
      displayPhoneNumber: input.displayPhoneNumber,
      accessToken: input.accessToken,
      appSecret: input.appSecret,
      businessAccountId: input.businessAccountId ?? previous?.businessAccountId ?? numericId(15),
      verifiedName: input.verifiedName ?? 'Test Business',
      ...(input.mpsLimit !== undefined ? { mpsLimit: input.mpsLimit } : {}),
      profile: previous?.profile ?? { about: '', description: '', profilePictureUrl: null },
    };
    this.byId.set(number.phoneNumberId, number);
    this.expired.delete(number.accessToken);
    return number;
  }

  get(phoneNumberId: string): BusinessNumber | undefined {
    return this.byId.get(phoneNumberId);
  }

  list(): BusinessNumber[] {
    return [...this.byId.values()];
  }

  /** Every later call with this number's current token answers 190 (HTTP 401), whichever number it names. */
  expireToken(phoneNumberId: string): void {
    const number = this.require(phoneNumberId);
    this.expired.set(number.accessToken, Date.now());
  }

  /** The number takes a new token; the old one stops working (expired stays expired, otherwise it becomes unknown). */
  replaceToken(phoneNumberId: string, token: string): void {
    if (!token) throw new Error('token is required');
    const number = this.require(phoneNumberId);
    number.accessToken = token;
    this.expired.delete(token);
  }

  /** Checks a bearer token the way Graph does before looking at the object: unknown → cannot parse, expired → 463. */
  authenticate(token: string | undefined): ApiError | undefined {
    if (!token) return invalidToken();
    const expiredAt = this.expired.get(token);
    if (expiredAt !== undefined) return expiredToken(expiredAt);
    for (const number of this.byId.values()) if (number.accessToken === token) return undefined;
    return invalidToken();
  }

  /**
   * A token acts for a number when it is that number's token or the token of another number of the same
   * business account (a system user token covers the whole WABA).
   */
  canAccess(token: string, phoneNumberId: string): boolean {
    const target = this.byId.get(phoneNumberId);
    if (!target) return false;
    if (target.accessToken === token) return true;
    for (const number of this.byId.values()) {
      if (number.accessToken === token && number.businessAccountId === target.businessAccountId) return true;
    }
    return false;
  }

  require(phoneNumberId: string): BusinessNumber {
    const number = this.byId.get(phoneNumberId);
    if (!number) throw new UnknownNumber(phoneNumberId);
    return number;
  }
}

export class UnknownNumber extends Error {
  constructor(readonly phoneNumberId: string) {
    super(`no number with phoneNumberId ${phoneNumberId}`);
  }
}
