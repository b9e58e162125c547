import { DELIVERY_STATUSES } from '../../domain/webhooks/deliveries.service.js';
import { builder } from '../builder.js';
import { InstanceType } from './instances.js';

/** The delivery log, webhook settings, test sends and redelivery; each calls the service REST uses. */

const DeliveryStatus = builder.enumType('DeliveryStatus', { values: DELIVERY_STATUSES });

builder.prismaObject('WebhookAttempt', {
  fields: (t) => ({
    number: t.exposeInt('number'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

builder.prismaObject('WebhookDelivery', {
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.exposeString('event'),
    url: t.exposeString('url'),
    status: t.expose('status', { type: DeliveryStatus }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.exposeString('payload', { description: 'The exact body every attempt sends.' }),
    attempts: t.relation('attempts', { query: { orderBy: { number: 'asc' } } }),
  }),
});

const SetWebhookInput = builder.inputType('SetWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'https, on a public address.' }),
    events: t.stringList({ description: 'All events of the variant when omitted.' }),
  }),
});

const WebhookTestResponse = builder.objectRef<{ statusCode: number; body: string }>('WebhookTestResponse').implement({
  fields: (t) => ({ statusCode: t.exposeInt('statusCode'), body: t.exposeString('body') }),
});

const WebhookTestResult = builder
  .objectRef<{ status: 'sent'; response: { statusCode: number; body: string } } | { status: 'failed'; error: string }>('WebhookTestResult')
  .implement({
    description: 'What the receiver answered to a signed webhook.test event.',
    fields: (t) => ({
      status: t.exposeString('status', { description: 'sent or failed' }),
      response: t.field({ type: WebhookTestResponse, nullable: true, resolve: (r) => ('response' in r ? r.response : null) }),
      error: t.string({ nullable: true, resolve: (r) => ('error' in r ? r.error : null) }),
    }),
  });

builder.mutationField('setWebhook', (t) =>
  t.field({
    type: InstanceType,
    errors: {},
    args: { instanceId: t.arg.id({ required: true }), input: t.arg({ type: SetWebhookInput, required: true }) },
    resolve: async (_root, { instanceId, input }, ctx) =>
      ctx.services.instances.setWebhook(await ctx.actor(), String(instanceId), input),
  }),
);

builder.mutationField('testWebhook', (t) =>
  t.field({
    type: WebhookTestResult,
    errors: {},
    args: { instanceId: t.arg.id({ required: true }) },
    resolve: async (_root, { instanceId }, ctx) => ctx.services.webhookTester.test(await ctx.actor(), String(instanceId)),
  }),
);

builder.mutationField('redeliverWebhook', (t) =>
  t.prismaField({
    type: 'WebhookDelivery',
    errors: {},
    description: 'A new delivery of the same event and bytes, due now.',
    args: { instanceId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { instanceId, deliveryId }, ctx) => {
      const created = await ctx.services.deliveries.redeliver(await ctx.actor(), String(instanceId), String(deliveryId));
      return ctx.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
);

const RotatedWebhookSecret = builder.objectRef<{ webhookSecret: string }>('RotatedWebhookSecret').implement({
  fields: (t) => ({
    webhookSecret: t.exposeString('webhookSecret', { description: 'The new signing secret, shown only in this answer.' }),
  }),
});

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: RotatedWebhookSecret,
    errors: {},
    description: 'A new webhook signing secret; for 24 hours deliveries carry signatures with both the old and the new one.',
    args: { instanceId: t.arg.id({ required: true }) },
    resolve: async (_root, { instanceId }, ctx) => ctx.services.instances.rotateWebhookSecret(await ctx.actor(), String(instanceId)),
  }),
);
