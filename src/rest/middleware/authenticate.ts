import type { Middleware } from 'koa';
import { type Accepts, authenticate } from '../../domain/auth/authenticate.js';
import type { AuthService } from '../../domain/auth/auth.service.js';
import { admit, type RequestLimiter } from '../../infra/rate-limit/request-limiter.js';
import type { AppState } from '../context.js';

export type Authenticator = (accepts: Accepts) => Middleware<AppState>;

/** Authenticates, then counts the request against the caller's rate limits: every authenticated route is limited. */
export function createAuthenticator(auth: AuthService, limiter: RequestLimiter): Authenticator {
  return (accepts) => async (ctx, next) => {
    const actor = await authenticate(auth, ctx.headers as Record<string, string | undefined>, accepts);
    ctx.state.actor = actor;
    const admission = await admit(limiter, actor, (name, value) => ctx.set(name, value));
    ctx.res.once('close', admission.leave);
    await next();
  };
}
