import type { Middleware } from 'koa';
import { type Accepts, authenticate } from '../../domain/auth/authenticate.js';
import type { AuthService } from '../../domain/auth/auth.service.js';
import type { AppState } from '../context.js';

export type Authenticator = (accepts: Accepts) => Middleware<AppState>;

export function createAuthenticator(auth: AuthService): Authenticator {
  return (accepts) => async (ctx, next) => {
    ctx.state.actor = await authenticate(auth, ctx.headers as Record<string, string | undefined>, accepts);
    await next();
  };
}
