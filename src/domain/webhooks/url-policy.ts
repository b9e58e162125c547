import { Invalid } from '../errors.js';

/**
 * The one rule for URLs the gateway will call (webhooks, media): https, unless insecure URLs are
 * allowed for local development.
 */
export function checkOutboundUrl(raw: string, field: string, allowInsecure: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Invalid(`${field}: must be an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    throw new Invalid(`${field}: must be an https:// URL`);
  }
  if (url.username || url.password) throw new Invalid(`${field}: must not carry credentials`);
  return url.toString();
}
