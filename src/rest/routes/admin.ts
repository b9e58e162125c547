import { createHash } from 'node:crypto';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { sameHash } from '../../domain/apikeys/api-key-format.js';
import { bearerToken } from '../../domain/auth/authenticate.js';
import { Unauthorized } from '../../domain/errors.js';
import type { TenantsService } from '../../domain/tenants/tenants.service.js';
import { type AppState, ok } from '../../http/context.js';
import { jsonBody } from '../../http/json-body.js';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The operator's API (docs/operating.md): a tenant's plan and limits, changed while the gateway runs.
 * Behind `ADMIN_TOKEN` (bearer); without it the API is off and answers 401 saying so.
 */
export function adminRoutes(tenants: TenantsService, token: string | undefined) {
  const router = new Router<AppState>();
  // Only the digest is kept: digests of equal length, compared in constant time, leak neither the token nor its length.
  const expected = token === undefined ? undefined : digest(token);
  const admin: Middleware<AppState> = async (ctx, next) => {
    if (!expected) throw new Unauthorized('The admin API is off: start the gateway with ADMIN_TOKEN set.');
    const given = bearerToken(ctx.get('authorization') || undefined);
    if (!given || !sameHash(digest(given), expected)) throw new Unauthorized('Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
    await next();
  };

  router.get('/admin/plans', admin, (ctx) => {
    ctx.body = ok(tenants.plans());
  });

  router.get('/admin/tenants/:tenantId', admin, async (ctx) => {
    ctx.body = ok(await tenants.settings(ctx.params.tenantId!));
  });

  router.patch('/admin/tenants/:tenantId', admin, jsonBody, async (ctx) => {
    ctx.body = ok(await tenants.change(ctx.params.tenantId!, ctx.state.body));
  });

  return router;
}
