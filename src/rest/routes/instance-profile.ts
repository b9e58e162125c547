import { Router } from '@koa/router';
import type { ProfileService } from '../../domain/profile/profile.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';

/**
 * The instance's own profile, privacy and block list (docs/settings.md "Profile and privacy"): under
 * /v1 with an API key, and without it with the dashboard's cookie. Each answer is what the network
 * holds after the request. Mounted before the contact routes, whose `:phone` would take `blocked`.
 */
export function instanceProfileRoutes(profile: ProfileService, authenticated: Authenticator) {
  return (['v1', 'session'] as const).map((variant) => {
    const router = new Router<AppState>({ prefix: variant === 'v1' ? '/v1/chat/instances' : '/chat/instances' });
    const auth = authenticated(variant === 'v1' ? { apiKey: true } : { session: true });
    router.get('/:instanceId/profile', auth, async (ctx) => {
      ctx.body = ok(await profile.profile(actorOf(ctx), ctx.params.instanceId!));
    });
    router.put('/:instanceId/profile', auth, jsonBody, async (ctx) => {
      ctx.body = ok(await profile.updateProfile(actorOf(ctx), ctx.params.instanceId!, ctx.state.body));
    });
    router.get('/:instanceId/privacy', auth, async (ctx) => {
      ctx.body = ok(await profile.privacy(actorOf(ctx), ctx.params.instanceId!));
    });
    router.put('/:instanceId/privacy', auth, jsonBody, async (ctx) => {
      ctx.body = ok(await profile.updatePrivacy(actorOf(ctx), ctx.params.instanceId!, ctx.state.body));
    });
    router.get('/:instanceId/contacts/blocked', auth, async (ctx) => {
      ctx.body = ok((await profile.blocked(actorOf(ctx), ctx.params.instanceId!)).map((phone) => ({ phone })));
    });
    return router;
  });
}
