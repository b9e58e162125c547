import { Router } from '@koa/router';
import type { SettingsService } from '../../domain/settings/settings.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import { jsonBody } from '../../http/json-body.js';
import type { Authenticator } from '../middleware/authenticate.js';

/**
 * An instance's settings as one object (docs/settings.md): the same paths under /v1 with an API key
 * and without it with the dashboard's cookie.
 */
export function instanceSettingsRoutes(settings: SettingsService, authenticated: Authenticator) {
  return (['v1', 'session'] as const).map((variant) => {
    const router = new Router<AppState>({ prefix: variant === 'v1' ? '/v1/chat/instances' : '/chat/instances' });
    const auth = authenticated(variant === 'v1' ? { apiKey: true } : { session: true });
    router.get('/:instanceId/settings', auth, async (ctx) => {
      ctx.body = ok(await settings.get(actorOf(ctx), ctx.params.instanceId!));
    });
    router.put('/:instanceId/settings', auth, jsonBody, async (ctx) => {
      ctx.body = ok(await settings.update(actorOf(ctx), ctx.params.instanceId!, ctx.state.body));
    });
    return router;
  });
}
