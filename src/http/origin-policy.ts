import { Forbidden } from '../domain/errors.js';

/** What a request says about the page that sent it (browsers set these; scripts cannot forge them). */
export interface RequestOrigin {
  origin: string | undefined;
  /** `Sec-Fetch-Site`: same-origin, same-site, cross-site or none (typed in the address bar, a bookmark). */
  fetchSite: string | undefined;
  /** The gateway's own host as the client addressed it (`Host`, or `X-Forwarded-Host` behind a trusted proxy). */
  host: string;
}

export type OriginPolicy = ReturnType<typeof createOriginPolicy>;

/**
 * Which pages may use the session cookie: the gateway's own and CORS_ORIGINS', checked as Go's
 * CrossOriginProtection does (Sec-Fetch-Site, then Origin against Host). A request with neither comes
 * from no browser, so it cannot carry a victim's cookie.
 */
export function createOriginPolicy(listed: readonly string[]) {
  const allowed = new Set(listed);
  return {
    /** Origins whose pages may read answers, credentials included (CORS). Never a reflection of any origin. */
    isListed: (origin: string | undefined): boolean => origin !== undefined && allowed.has(origin),

    /** Whether a request may act with the session cookie: from the gateway's own pages, a listed origin, or no browser. */
    trusts(request: RequestOrigin): boolean {
      if (request.origin !== undefined && allowed.has(request.origin)) return true;
      // same-site is not enough: a sibling subdomain or a user-content host is another party.
      if (request.fetchSite) return request.fetchSite === 'same-origin' || request.fetchSite === 'none';
      if (request.origin === undefined) return true;
      return hostOf(request.origin) === request.host.toLowerCase();
    },
  };
}

/** The host (with port) of an Origin header; a malformed or opaque ("null") origin matches nothing. */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** The refusal of a cookie-authenticated change sent from another site's page. */
export function crossOriginRefusal(): Forbidden {
  return new Forbidden(
    'Cross-origin request refused: with a session cookie, changes are accepted only from the gateway\'s own pages or an origin listed in CORS_ORIGINS.',
  );
}

/** Methods that change nothing; every other one is a write. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin facts of a request from its headers (any transport). */
export function requestOrigin(headers: Record<string, string | string[] | undefined>, host: string): RequestOrigin {
  const one = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value) || undefined;
  };
  return { origin: one('origin'), fetchSite: one('sec-fetch-site'), host };
}
