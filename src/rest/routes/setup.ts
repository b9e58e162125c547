import { Router } from '@koa/router';
import { SESSION_COOKIE, SESSION_COOKIE_ATTRIBUTES } from '../../domain/auth/authenticate.js';
import type { AuthService } from '../../domain/auth/auth.service.js';
import type { SetupService } from '../../domain/setup/setup.service.js';
import { type AppState, ok } from '../../http/context.js';
import { jsonBody } from '../../http/json-body.js';

/**
 * The first account (the link the gateway prints at start while no user exists): the dashboard's
 * setup page checks the link, then creates the tenant and its owner and is signed in.
 */
export function setupRoutes(setup: SetupService, auth: AuthService) {
  const router = new Router<AppState>();

  router.post('/auth/setup/check', jsonBody, async (ctx) => {
    const { expiresAt } = await setup.check(ctx.state.body);
    ctx.body = ok({ open: true, expiresAt: expiresAt.toISOString() });
  });

  router.post('/auth/setup', jsonBody, async (ctx) => {
    const { tenant, user } = await setup.complete(ctx.state.body);
    const session = await auth.openSession(user, tenant);
    ctx.cookies.set(SESSION_COOKIE, session.token, { ...SESSION_COOKIE_ATTRIBUTES, secure: ctx.secure, expires: session.expiresAt, overwrite: true });
    ctx.status = 201;
    ctx.body = ok({
      user: session.user,
      tenant: { id: tenant.id, name: tenant.name, plan: tenant.plan },
      expiresAt: session.expiresAt.toISOString(),
    });
  });

  return router;
}
