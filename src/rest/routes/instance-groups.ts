import { Router } from '@koa/router';
import type { GroupsService } from '../../domain/groups/groups.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';

/**
 * Group management through one instance (docs/messaging.md "Groups and polls"): under /v1 with an API
 * key, and without it with the dashboard's cookie. Each answer is what the network answered.
 */
export function instanceGroupRoutes(groups: GroupsService, authenticated: Authenticator) {
  return (['v1', 'session'] as const).map((variant) => {
    const router = new Router<AppState>({ prefix: variant === 'v1' ? '/v1/chat/instances' : '/chat/instances' });
    const auth = authenticated(variant === 'v1' ? { apiKey: true } : { session: true });
    router.get('/:instanceId/groups', auth, async (ctx) => {
      ctx.body = ok(await groups.list(actorOf(ctx), ctx.params.instanceId!));
    });
    router.post('/:instanceId/groups', auth, jsonBody, async (ctx) => {
      ctx.status = 201;
      ctx.body = ok(await groups.create(actorOf(ctx), ctx.params.instanceId!, ctx.state.body));
    });
    router.get('/:instanceId/groups/:groupId', auth, async (ctx) => {
      ctx.body = ok(await groups.get(actorOf(ctx), ctx.params.instanceId!, ctx.params.groupId!));
    });
    router.patch('/:instanceId/groups/:groupId', auth, jsonBody, async (ctx) => {
      ctx.body = ok(await groups.update(actorOf(ctx), ctx.params.instanceId!, ctx.params.groupId!, ctx.state.body));
    });
    router.post('/:instanceId/groups/:groupId/participants', auth, jsonBody, async (ctx) => {
      ctx.body = ok(await groups.participants(actorOf(ctx), ctx.params.instanceId!, ctx.params.groupId!, ctx.state.body));
    });
    router.get('/:instanceId/groups/:groupId/invite', auth, async (ctx) => {
      ctx.body = ok(await groups.invite(actorOf(ctx), ctx.params.instanceId!, ctx.params.groupId!));
    });
    router.post('/:instanceId/groups/:groupId/leave', auth, async (ctx) => {
      await groups.leave(actorOf(ctx), ctx.params.instanceId!, ctx.params.groupId!);
      ctx.body = { success: true, message: 'Left the group.' };
    });
    return router;
  });
}
