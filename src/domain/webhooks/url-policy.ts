import { Invalid } from '../errors.js';
import { isForbiddenAddress } from './address-policy.js';

/** How a local receiver (http://, localhost, a private address) is allowed, for development and tests only. */
const INSECURE_HINT = 'the gateway setting WEBHOOK_ALLOW_INSECURE=true allows http:// and local addresses, for local development only';

/** Every address a host name resolves to (A and AAAA). */
export interface HostResolver {
  resolve(host: string): Promise<string[]>;
}

/**
 * The one rule for URLs the gateway will call for a tenant (webhooks, media): https, and a host that
 * is not and does not resolve to a private address. `allowInsecure` (local development and tests)
 * lifts both. Delivery checks the address again when it connects, since DNS answers change.
 */
export function checkOutboundUrlSyntax(raw: string, field: string, allowInsecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw Invalid.at(field, 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    // A local http:// receiver is the usual first try: say which setting allows it.
    throw Invalid.at(field, url.protocol === 'http:' ? `must be an https:// URL (${INSECURE_HINT})` : 'must be an https:// URL');
  }
  if (url.username || url.password) throw Invalid.at(field, 'must not carry credentials');
  return url;
}

export type UrlPolicy = ReturnType<typeof createUrlPolicy>;

export function createUrlPolicy(resolver: HostResolver, allowInsecure: boolean) {
  return {
    allowInsecure,
    async check(raw: string, field: string): Promise<string> {
      const url = checkOutboundUrlSyntax(raw, field, allowInsecure);
      if (allowInsecure) return url.toString();
      const host = url.hostname.replace(/^\[|\]$/g, '');
      let addresses: string[];
      try {
        addresses = /^[\d.]+$|:/.test(host) ? [host] : await resolver.resolve(host);
      } catch {
        throw Invalid.at(field, `the host ${host} does not resolve`);
      }
      if (addresses.length === 0 || addresses.some(isForbiddenAddress)) {
        throw Invalid.at(field, `must point to a public address, not a private, loopback or link-local one (${INSECURE_HINT})`);
      }
      return url.toString();
    },
  };
}
