import { Router } from '@koa/router';
import { SESSION_COOKIE, SESSION_COOKIE_ATTRIBUTES, sessionToken } from '../../domain/auth/authenticate.js';
import type { AuthService } from '../../domain/auth/auth.service.js';
import { type AppContext, type AppState, ok } from '../../http/context.js';
import { jsonBody } from '../../http/json-body.js';
import { crossOriginRefusal, type OriginPolicy, requestOrigin } from '../../http/origin-policy.js';

function setSessionCookie(ctx: AppContext, token: string | null, expires: Date) {
  ctx.cookies.set(SESSION_COOKIE, token, {
    ...SESSION_COOKIE_ATTRIBUTES,
    secure: ctx.secure,
    expires,
    overwrite: true,
  });
}

export function authRoutes(auth: AuthService, origins: OriginPolicy) {
  const router = new Router<AppState>();

  router.post('/auth/sessions', jsonBody, async (ctx) => {
    const session = await auth.login(ctx.state.body, ctx.ip);
    setSessionCookie(ctx, session.token, session.expiresAt);
    ctx.body = ok({
      user: session.user,
      tenant: { id: session.tenant.id, name: session.tenant.name, plan: session.tenant.plan },
      expiresAt: session.expiresAt.toISOString(),
    });
  });

  router.delete('/auth/sessions', async (ctx) => {
    const token = sessionToken(ctx.get('Cookie'));
    // Another site's page must not end the user's session either.
    if (token && !origins.trusts(requestOrigin(ctx.headers, ctx.host))) throw crossOriginRefusal();
    if (token) await auth.logout(token);
    setSessionCookie(ctx, null, new Date(0));
    ctx.body = { success: true, message: 'Logged out.' };
  });

  return router;
}
