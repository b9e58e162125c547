import { Router } from '@koa/router';
import type { ChatAction, ConversationsService } from '../../domain/conversations/conversations.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';
import { presentChat, presentChatMessage, presentContact } from '../presenters/conversations.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';
import type { ChatRecord } from '../../domain/conversations/conversations.ports.js';

const STATE_ACTIONS: ChatAction[] = ['read', 'unread', 'archive', 'unarchive', 'pin', 'unpin', 'unmute'];

/**
 * An instance's chats and contacts (docs/conversations.md "REST"): under /v1 with an API key, and
 * without it with the dashboard's cookie. A query is passed whole: a parameter the list does not
 * take is refused by name.
 */
export function conversationRoutes(conversations: ConversationsService, links: MediaLinks, authenticated: Authenticator) {
  const chat = (record: ChatRecord) => presentChat(record, links);
  return (['v1', 'session'] as const).map((variant) => {
    const router = new Router<AppState>({ prefix: variant === 'v1' ? '/v1/chat/instances' : '/chat/instances' });
    const auth = authenticated(variant === 'v1' ? { apiKey: true } : { session: true });
    router.get('/:instanceId/chats', auth, async (ctx) => {
      const page = await conversations.chats(actorOf(ctx), ctx.params.instanceId!, { ...ctx.query });
      ctx.body = { success: true, data: page.items.map(chat), next: page.next };
    });
    router.get('/:instanceId/chats/:chatId', auth, async (ctx) => {
      ctx.body = ok(chat(await conversations.chat(actorOf(ctx), ctx.params.instanceId!, ctx.params.chatId!)));
    });
    router.get('/:instanceId/chats/:chatId/messages', auth, async (ctx) => {
      const page = await conversations.messages(actorOf(ctx), ctx.params.instanceId!, ctx.params.chatId!, { ...ctx.query });
      ctx.body = { success: true, data: page.items.map((message) => presentChatMessage(message, links)), next: page.next };
    });
    for (const action of STATE_ACTIONS) {
      router.post(`/:instanceId/chats/:chatId/${action}`, auth, async (ctx) => {
        ctx.body = ok(chat(await conversations.act(actorOf(ctx), ctx.params.instanceId!, ctx.params.chatId!, action)));
      });
    }
    router.post('/:instanceId/chats/:chatId/mute', auth, jsonBody, async (ctx) => {
      ctx.body = ok(chat(await conversations.act(actorOf(ctx), ctx.params.instanceId!, ctx.params.chatId!, 'mute', ctx.state.body)));
    });
    router.delete('/:instanceId/chats/:chatId', auth, async (ctx) => {
      await conversations.deleteChat(actorOf(ctx), ctx.params.instanceId!, ctx.params.chatId!);
      ctx.body = { success: true, message: 'Chat and its messages forgotten.' };
    });
    router.post('/:instanceId/chats/:chatId/history', auth, jsonBody, async (ctx) => {
      await conversations.backfill(actorOf(ctx), ctx.params.instanceId!, ctx.params.chatId!, ctx.state.body);
      ctx.status = 202;
      ctx.body = { success: true, message: 'Older messages asked of the phone; they arrive as history.' };
    });
    router.get('/:instanceId/contacts', auth, async (ctx) => {
      const page = await conversations.contacts(actorOf(ctx), ctx.params.instanceId!, { ...ctx.query });
      ctx.body = { success: true, data: page.items.map(presentContact), next: page.next };
    });
    router.get('/:instanceId/contacts/:phone', auth, async (ctx) => {
      ctx.body = ok(presentContact(await conversations.contact(actorOf(ctx), ctx.params.instanceId!, ctx.params.phone!)));
    });
    for (const [action, blocked] of [['block', true], ['unblock', false]] as const) {
      router.post(`/:instanceId/contacts/:phone/${action}`, auth, async (ctx) => {
        ctx.body = ok(presentContact(await conversations.block(actorOf(ctx), ctx.params.instanceId!, ctx.params.phone!, blocked)));
      });
    }
    return router;
  });
}
