import { Router } from '@koa/router';
import type { InstancesService } from '../../domain/instances/instances.service.js';
import type { MessagesService } from '../../domain/messages/messages.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';
import { presentPairingCode, presentSessionCreated, presentSessionDetail, presentSessionListItem, presentSessionRegenerated } from '../presenters/instances.js';

/** Spec 4.3: the session instance API, cookie authenticated. */
export function instanceSessionRoutes(instances: InstancesService, messages: MessagesService, authenticated: Authenticator) {
  const router = new Router<AppState>({ prefix: '/chat/instances' });
  // Authenticated route by route: a router-wide middleware would also run for the other routers under
  // this prefix (instance messaging, groups), counting their requests twice against the rate limits.
  const auth = authenticated({ session: true });

  router.get('/', auth, async (ctx) => {
    ctx.body = ok((await instances.list(actorOf(ctx))).map(presentSessionListItem));
  });
  router.post('/', auth, jsonBody, async (ctx) => {
    const { instance } = await instances.create(actorOf(ctx), 'session', ctx.state.body);
    ctx.status = 201;
    ctx.body = ok(presentSessionCreated(instance));
  });
  router.get('/:instanceId', auth, async (ctx) => {
    const { instance, qr } = await instances.get(actorOf(ctx), ctx.params.instanceId!);
    ctx.body = ok(presentSessionDetail(instance, qr, instances.mediaPolicyOf(instance)));
  });
  router.put('/:instanceId', auth, jsonBody, async (ctx) => {
    const { instance, qr } = await instances.update(actorOf(ctx), ctx.params.instanceId!, ctx.state.body);
    ctx.body = ok(presentSessionDetail(instance, qr, instances.mediaPolicyOf(instance)));
  });
  router.delete('/:instanceId', auth, async (ctx) => {
    await instances.remove(actorOf(ctx), ctx.params.instanceId!);
    ctx.body = { success: true, message: 'Instance deleted permanently.' };
  });
  router.post('/:instanceId/webhook/secret', auth, async (ctx) => {
    ctx.body = ok(await instances.rotateWebhookSecret(actorOf(ctx), ctx.params.instanceId!));
  });
  router.post('/:instanceId/regenerate-qr', auth, async (ctx) => {
    const { instance, qr } = await instances.regenerateQr(actorOf(ctx), ctx.params.instanceId!);
    ctx.body = ok(presentSessionRegenerated(instance, qr));
  });
  router.post('/:instanceId/pairing-code', auth, jsonBody, async (ctx) => {
    ctx.body = ok(presentPairingCode(await instances.requestPairingCode(actorOf(ctx), ctx.params.instanceId!, ctx.state.body)));
  });
  router.post('/:instanceId/disconnect', auth, async (ctx) => {
    const instance = await instances.disconnect(actorOf(ctx), ctx.params.instanceId!);
    ctx.body = ok({ id: instance.id, status: presentSessionListItem(instance).status });
  });
  router.post('/:instanceId/send-text', auth, jsonBody, async (ctx) => {
    const sent = await messages.sendText(actorOf(ctx), ctx.params.instanceId!, ctx.state.body, ctx.get('Idempotency-Key') || undefined);
    ctx.body = ok({ id: sent.id, status: sent.status, timestamp: sent.timestamp });
  });
  router.post('/:instanceId/send-media', auth, jsonBody, async (ctx) => {
    const sent = await messages.sendMedia(actorOf(ctx), ctx.params.instanceId!, ctx.state.body, ctx.get('Idempotency-Key') || undefined);
    ctx.body = ok({ id: sent.id, status: sent.status, timestamp: sent.timestamp });
  });
  return router;
}
