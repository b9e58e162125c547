import type { Middleware } from 'koa';
import { type Accepts, authenticate } from '../../domain/auth/authenticate.js';
import type { AuthService } from '../../domain/auth/auth.service.js';
import { admit, type RequestLimiter } from '../../infra/rate-limit/request-limiter.js';
import type { AppState } from '../../http/context.js';
import { whenDone } from '../../http/when-done.js';
import { crossOriginRefusal, type OriginPolicy, requestOrigin, SAFE_METHODS } from '../../http/origin-policy.js';

export type Authenticator = (accepts: Accepts) => Middleware<AppState>;

/**
 * Authenticates, then counts the request against the caller's rate limits: every authenticated route
 * is limited. A write made with the session cookie must come from a page the origin policy trusts
 * (CSRF); an API key is never sent by a browser on its own, so key requests are not checked.
 */
export function createAuthenticator(auth: AuthService, limiter: RequestLimiter, origins: OriginPolicy): Authenticator {
  return (accepts) => async (ctx, next) => {
    const actor = await authenticate(auth, ctx.headers as Record<string, string | undefined>, accepts);
    if (actor.kind === 'user' && !SAFE_METHODS.has(ctx.method) && !origins.trusts(requestOrigin(ctx.headers, ctx.host))) {
      throw crossOriginRefusal();
    }
    ctx.state.actor = actor;
    const admission = await admit(limiter, actor, (name, value) => ctx.set(name, value));
    whenDone(ctx.res, admission.leave);
    await next();
  };
}
