import { parse as parseCookies } from 'cookie';
import type { Actor } from '../actor.js';
import { Unauthorized } from '../errors.js';
import type { AuthService } from './auth.service.js';

export const SESSION_COOKIE = 'auth-session';
/** How the session cookie is set, by REST and GraphQL alike (`secure` and `expires` per answer). */
export const SESSION_COOKIE_ATTRIBUTES = { httpOnly: true, sameSite: 'lax', path: '/' } as const;

/** The raw request headers any transport (Koa, yoga, graphql-ws) can hand over. */
export interface CredentialHeaders {
  authorization?: string | undefined;
  'x-api-key'?: string | undefined;
  cookie?: string | undefined;
}

/** Which credentials an entry point accepts. */
export interface Accepts {
  apiKey?: boolean;
  /** The X-API-Key header (messages endpoints only). */
  xApiKey?: boolean;
  session?: boolean;
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

export function sessionToken(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return parseCookies(cookieHeader)[SESSION_COOKIE] || undefined;
}

/**
 * The one authentication step of every transport. A credential of a kind the entry point does not
 * accept counts as no credential: 401 unauthorized, never a silent fallback.
 */
export async function authenticate(auth: AuthService, headers: CredentialHeaders, accepts: Accepts): Promise<Actor> {
  if (accepts.apiKey) {
    if (headers.authorization !== undefined && headers.authorization !== '') {
      const key = bearerToken(headers.authorization);
      if (!key) throw new Unauthorized('The Authorization header must be "Bearer <API key>".');
      return auth.authenticateApiKey(key);
    }
    if (accepts.xApiKey && headers['x-api-key']) return auth.authenticateApiKey(headers['x-api-key'].trim());
  }
  if (accepts.session) {
    const token = sessionToken(headers.cookie);
    if (token) return auth.authenticateSession(token);
  }
  if (accepts.apiKey && !accepts.xApiKey && headers['x-api-key']) {
    throw new Unauthorized('X-API-Key is accepted on the /v1/messages endpoints only; send the key here as "Authorization: Bearer <key>".');
  }
  throw new Unauthorized(missingMessage(accepts));
}

function missingMessage(accepts: Accepts): string {
  const ways = [
    accepts.apiKey && 'an API key in "Authorization: Bearer <key>"',
    accepts.xApiKey && 'an "X-API-Key" header',
    accepts.session && `a session cookie "${SESSION_COOKIE}" (log in with POST /auth/sessions)`,
  ].filter(Boolean);
  return `Authentication required: send ${ways.join(' or ')}.`;
}
