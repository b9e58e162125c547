import { Router } from '@koa/router';
import type { MessageActionsService } from '../../domain/messages/message-actions.service.js';
import type { MessagesService } from '../../domain/messages/messages.service.js';
import type { Integration } from '../../domain/network/integrations.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody, mediaJsonBody } from '../../http/json-body.js';
import { presentMessage } from '../presenters/messages.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';

/**
 * What a tenant says and does through one instance (docs/messaging.md): sends of every kind, and
 * actions on its messages and chats. The same paths under /v1 with an API key and without it with the
 * dashboard's cookie.
 */
export function instanceMessagingRoutes(messages: MessagesService, actions: MessageActionsService, integrations: () => Integration[], links: MediaLinks, authenticated: Authenticator) {
  const routers = (['v1', 'session'] as const).map((variant) => {
    const router = new Router<AppState>({ prefix: variant === 'v1' ? '/v1/chat/instances' : '/chat/instances' });
    const auth = authenticated(variant === 'v1' ? { apiKey: true } : { session: true });
    router.post('/:instanceId/messages', auth, mediaJsonBody, async (ctx) => {
      ctx.body = ok(await messages.sendThrough(actorOf(ctx), ctx.params.instanceId!, ctx.state.body, ctx.get('Idempotency-Key') || undefined));
    });
    router.patch('/:instanceId/messages/:messageId', auth, jsonBody, async (ctx) => {
      ctx.body = ok(presentMessage(await actions.edit(actorOf(ctx), ctx.params.instanceId!, ctx.params.messageId!, ctx.state.body), links));
    });
    router.delete('/:instanceId/messages/:messageId', auth, async (ctx) => {
      await actions.deleteForEveryone(actorOf(ctx), ctx.params.instanceId!, ctx.params.messageId!);
      ctx.body = { success: true, message: 'Message deleted for everyone.' };
    });
    router.post('/:instanceId/messages/:messageId/read', auth, async (ctx) => {
      await actions.markRead(actorOf(ctx), ctx.params.instanceId!, ctx.params.messageId!);
      ctx.body = { success: true, message: 'Marked read.' };
    });
    router.post('/:instanceId/chats/:chat/presence', auth, jsonBody, async (ctx) => {
      await actions.presence(actorOf(ctx), ctx.params.instanceId!, ctx.params.chat!, ctx.state.body);
      ctx.body = { success: true, message: 'Presence sent.' };
    });
    router.post('/:instanceId/contacts/check', auth, jsonBody, async (ctx) => {
      ctx.body = ok(await actions.checkNumbers(actorOf(ctx), ctx.params.instanceId!, ctx.state.body));
    });
    return router;
  });
  const catalogue = new Router<AppState>();
  catalogue.get('/v1/integrations', authenticated({ apiKey: true, xApiKey: true, session: true }), async (ctx) => {
    await Promise.resolve();
    ctx.body = ok(integrations());
  });
  return [...routers, catalogue];
}
