import { Router } from '@koa/router';
import type { MediaDownloads } from '../../domain/media/downloads.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';
import type { MessageRecord } from '../../domain/messages/messages.ports.js';
import type { MessagesService } from '../../domain/messages/messages.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';
import { presentMessage } from '../presenters/messages.js';
import { answerMedia } from '../media-answer.js';
import { parseRange } from '../../domain/media/byte-ranges.js';

export function messageRoutes(messages: MessagesService, media: MediaDownloads, links: MediaLinks, authenticated: Authenticator) {
  const present = (message: MessageRecord) => presentMessage(message, links);
  const router = new Router<AppState>();
  const withKey = authenticated({ apiKey: true, xApiKey: true });

  router.post('/v1/messages/send', withKey, jsonBody, async (ctx) => {
    const idempotencyKey = ctx.get('Idempotency-Key') || undefined;
    ctx.body = ok(await messages.send(actorOf(ctx), ctx.state.body, idempotencyKey));
  });

  router.get('/v1/messages/list', withKey, async (ctx) => {
    const page = await messages.list(actorOf(ctx), ctx.query);
    ctx.body = ok(page.items.map(present), {
      pagination: { page: page.page, limit: page.limit, total: page.total, pages: page.pages },
    });
  });

  // The dashboard shows received pictures with its session cookie (a read: no cross-site write to guard).
  router.get('/v1/messages/:messageId/media', authenticated({ apiKey: true, xApiKey: true, session: true }), async (ctx) => {
    answerMedia(ctx, await media.open(actorOf(ctx), ctx.params.messageId!, parseRange(ctx.get('Range') || undefined)));
  });

  router.get('/v1/messages/status/:messageId', withKey, async (ctx) => {
    ctx.body = ok(present(await messages.get(actorOf(ctx), ctx.params.messageId!)));
  });

  return router;
}
