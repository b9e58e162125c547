import { Readable } from 'node:stream';
import { Router } from '@koa/router';
import type { MediaDownloads } from '../../domain/media/downloads.js';
import type { MessagesService } from '../../domain/messages/messages.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';
import { presentMessage } from '../presenters/messages.js';

export function messageRoutes(messages: MessagesService, media: MediaDownloads, authenticated: Authenticator) {
  const router = new Router<AppState>();
  const withKey = authenticated({ apiKey: true, xApiKey: true });

  router.post('/v1/messages/send', withKey, jsonBody, async (ctx) => {
    const idempotencyKey = ctx.get('Idempotency-Key') || undefined;
    ctx.body = ok(await messages.send(actorOf(ctx), ctx.state.body, idempotencyKey));
  });

  router.get('/v1/messages/list', withKey, async (ctx) => {
    const page = await messages.list(actorOf(ctx), ctx.query);
    ctx.body = ok(page.items.map(presentMessage), {
      pagination: { page: page.page, limit: page.limit, total: page.total, pages: page.pages },
    });
  });

  // The dashboard shows received pictures with its session cookie (a read: no cross-site write to guard).
  router.get('/v1/messages/:messageId/media', authenticated({ apiKey: true, xApiKey: true, session: true }), async (ctx) => {
    const download = await media.open(actorOf(ctx), ctx.params.messageId!);
    // Sets Content-Disposition (an attachment, with an ASCII fallback of the name); the type is the one it
    // is served as. `sandbox`: a file opened in a tab anyway runs no script and has no origin (docs/messaging.md).
    ctx.attachment(download.fileName);
    ctx.type = download.mimetype;
    ctx.set('Content-Security-Policy', 'sandbox');
    if (download.size !== null) ctx.length = download.size;
    ctx.body = Readable.from(download.bytes, { objectMode: false });
  });

  router.get('/v1/messages/status/:messageId', withKey, async (ctx) => {
    ctx.body = ok(presentMessage(await messages.get(actorOf(ctx), ctx.params.messageId!)));
  });

  return router;
}
