import { Router } from '@koa/router';
import type { InstancesService } from '../../domain/instances/instances.service.js';
import type { DeliveriesService } from '../../domain/webhooks/deliveries.service.js';
import type { WebhookTester } from '../../domain/webhooks/webhook-tester.js';
import { presentDelivery } from '../presenters/deliveries.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';
import { presentPairingCode, presentV1Created, presentV1Detail, presentV1ListItem, presentV1Qr } from '../presenters/instances.js';

/** Spec 4.2: the v1 instance API, API-key authenticated. */
export function instanceV1Routes(
  instances: InstancesService,
  webhooks: WebhookTester,
  deliveries: DeliveriesService,
  authenticated: Authenticator,
) {
  const router = new Router<AppState>({ prefix: '/v1/chat/instances' });
  // Authenticated route by route: a router-wide middleware would also run for the other routers under
  // this prefix (instance messaging, groups), counting their requests twice against the rate limits.
  const auth = authenticated({ apiKey: true });

  router.get('/', auth, async (ctx) => {
    ctx.body = ok((await instances.list(actorOf(ctx))).map(presentV1ListItem));
  });
  router.post('/', auth, jsonBody, async (ctx) => {
    const { instance, qr } = await instances.create(actorOf(ctx), 'v1', ctx.state.body);
    ctx.status = 201;
    ctx.body = ok(presentV1Created(instance, qr));
  });
  router.get('/:instanceId', auth, async (ctx) => {
    const { instance } = await instances.get(actorOf(ctx), ctx.params.instanceId!);
    ctx.body = ok(presentV1Detail(instance, instances.mediaPolicyOf(instance)));
  });
  router.put('/:instanceId', auth, jsonBody, async (ctx) => {
    const { instance } = await instances.update(actorOf(ctx), ctx.params.instanceId!, ctx.state.body);
    ctx.body = ok(presentV1Detail(instance, instances.mediaPolicyOf(instance)));
  });
  router.delete('/:instanceId', auth, async (ctx) => {
    await instances.remove(actorOf(ctx), ctx.params.instanceId!);
    ctx.body = { success: true, message: 'Instance deleted permanently.' };
  });
  router.post('/:instanceId/toggle', auth, async (ctx) => {
    const instance = await instances.toggle(actorOf(ctx), ctx.params.instanceId!);
    ctx.body = ok({ id: instance.id, active: instance.active, message: instance.active ? 'Instance activated.' : 'Instance deactivated.' });
  });
  router.get('/:instanceId/qr', auth, async (ctx) => {
    ctx.body = ok(presentV1Qr(await instances.qrCode(actorOf(ctx), ctx.params.instanceId!)));
  });
  router.post('/:instanceId/pairing-code', auth, jsonBody, async (ctx) => {
    ctx.body = ok(presentPairingCode(await instances.requestPairingCode(actorOf(ctx), ctx.params.instanceId!, ctx.state.body)));
  });
  router.post('/:instanceId/webhook', auth, jsonBody, async (ctx) => {
    const instance = await instances.setWebhook(actorOf(ctx), ctx.params.instanceId!, ctx.state.body);
    ctx.body = ok({ url: instance.webhookUrl, events: instance.webhookEvents });
  });
  router.post('/:instanceId/webhook/secret', auth, async (ctx) => {
    ctx.body = ok(await instances.rotateWebhookSecret(actorOf(ctx), ctx.params.instanceId!));
  });
  router.post('/:instanceId/webhook/test', auth, async (ctx) => {
    ctx.body = ok(await webhooks.test(actorOf(ctx), ctx.params.instanceId!));
  });
  // The delivery log (not in the spec): the latest 50 deliveries with every attempt, and redelivery.
  router.get('/:instanceId/webhook/deliveries', auth, async (ctx) => {
    ctx.body = ok((await deliveries.list(actorOf(ctx), ctx.params.instanceId!)).map(presentDelivery));
  });
  router.post('/:instanceId/webhook/deliveries/:deliveryId/redeliver', auth, async (ctx) => {
    ctx.body = ok(presentDelivery(await deliveries.redeliver(actorOf(ctx), ctx.params.instanceId!, ctx.params.deliveryId!)));
  });
  return router;
}
