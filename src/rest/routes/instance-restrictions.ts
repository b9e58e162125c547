import { Router } from '@koa/router';
import type { RestrictionsService } from '../../domain/settings/restrictions.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';

/** The account's timelock and message cap (docs/settings.md, "Restrictions"), in both variants. */
export function instanceRestrictionsRoutes(restrictions: RestrictionsService, authenticated: Authenticator) {
  return (['v1', 'session'] as const).map((variant) => {
    const router = new Router<AppState>({ prefix: variant === 'v1' ? '/v1/chat/instances' : '/chat/instances' });
    const auth = authenticated(variant === 'v1' ? { apiKey: true } : { session: true });
    router.get('/:instanceId/restrictions', auth, async (ctx) => {
      ctx.body = ok(await restrictions.read(actorOf(ctx), ctx.params.instanceId!));
    });
    return router;
  });
}
