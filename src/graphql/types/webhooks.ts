import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import { builder } from '../builder.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';
import { InstanceType, WebhookEventEnum } from './instances.js';
import './webhook-deliveries.js';

/** Webhook settings, test sends, redelivery and secret rotation; each calls the service REST uses. */


const SetWebhookInput = builder.inputType('SetWebhookInput', {
  description: "An instance's webhook (as POST …/instances/<id>/webhook).",
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    url: t.string({ required: true, description: 'https, on a public address.' }),
    events: t.field({ type: [WebhookEventEnum], description: "All events of the instance's variant when omitted." }),
  }),
});

const SetWebhookPayload = builder.objectRef<Payload<{ instance: InstanceRecord }>>('SetWebhookPayload').implement({
  description: 'The instance with its new webhook, or why it was not set.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    instance: t.field({ type: InstanceType, nullable: true, description: 'The instance as it is now; null when nothing was done.', resolve: (p) => p.instance ?? null }),
  }),
});

builder.mutationField('setWebhook', (t) =>
  t.field({
    type: SetWebhookPayload,
    description: "Sets the instance's webhook URL and events.",
    args: { input: t.arg({ type: SetWebhookInput, required: true, description: 'The webhook.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { instanceId, ...body } = input;
      const actor = await ctx.actor();
      return payloadOf(async () => ({ instance: await ctx.services.instances.setWebhook(actor, String(instanceId), body) }));
    },
  }),
);

const WebhookTestStatusEnum = builder.enumType('WebhookTestStatus', {
  values: { sent: { description: 'The receiver answered (any status).' }, failed: { description: 'No answer: see `error`.' } } as const,
  description: 'Whether the test event reached the receiver.',
});

type TestResult = { status: 'sent'; response: { statusCode: number; body: string } } | { status: 'failed'; error: string };

const WebhookTestResponse = builder.objectRef<{ statusCode: number; body: string }>('WebhookTestResponse').implement({
  description: "The receiver's answer to a test event.",
  fields: (t) => ({
    statusCode: t.exposeInt('statusCode', { description: 'Its HTTP status.' }),
    body: t.exposeString('body', { description: 'The start of its body.' }),
  }),
});

const TestWebhookPayload = builder.objectRef<Payload<{ result: TestResult }>>('TestWebhookPayload').implement({
  description: 'What the receiver answered to a signed webhook.test event, or why none was sent.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    status: t.field({ type: WebhookTestStatusEnum, nullable: true, description: 'Whether it reached the receiver; null when none was sent.', resolve: (p) => p.result?.status ?? null }),
    response: t.field({
      type: WebhookTestResponse,
      nullable: true,
      description: "The receiver's answer; null when it did not answer.",
      resolve: (p) => (p.result && 'response' in p.result ? p.result.response : null),
    }),
    error: t.string({ nullable: true, description: 'Why it did not reach the receiver; null when it did.', resolve: (p) => (p.result && 'error' in p.result ? p.result.error : null) }),
  }),
});

const InstanceOnlyInput = (name: string, description: string) =>
  builder.inputType(name, { description, fields: (t) => ({ instanceId: t.id({ required: true, description: 'The instance.' }) }) });

builder.mutationField('testWebhook', (t) =>
  t.field({
    type: TestWebhookPayload,
    description: "Sends a signed webhook.test event to the instance's webhook now (not stored, not retried).",
    args: { input: t.arg({ type: InstanceOnlyInput('TestWebhookInput', 'The instance whose webhook to test.'), required: true, description: 'The instance.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({ result: (await ctx.services.webhookTester.test(actor, String(input.instanceId))) as TestResult }));
    },
  }),
);

const RedeliverWebhookInput = builder.inputType('RedeliverWebhookInput', {
  description: 'A delivery to send again.',
  fields: (t) => ({
    instanceId: t.id({ required: true, description: 'The instance.' }),
    deliveryId: t.id({ required: true, description: 'The delivery to send again.' }),
  }),
});

const RedeliverWebhookPayload = builder.objectRef<Payload<{ deliveryId: string }>>('RedeliverWebhookPayload').implement({
  description: 'The new delivery, or why there is none.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    delivery: t.prismaField({
      type: 'WebhookDelivery',
      nullable: true,
      description: 'A new delivery of the same event and bytes, due now; null when refused.',
      resolve: (query, p, _args, ctx) => (p.deliveryId ? ctx.prisma.webhookDelivery.findUnique({ ...query, where: { id: p.deliveryId } }) : null),
    }),
  }),
});

builder.mutationField('redeliverWebhook', (t) =>
  t.field({
    type: RedeliverWebhookPayload,
    description: 'Sends a delivery again, as a new delivery of the same event and bytes.',
    args: { input: t.arg({ type: RedeliverWebhookInput, required: true, description: 'The delivery.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({
        deliveryId: (await ctx.services.deliveries.redeliver(actor, String(input.instanceId), String(input.deliveryId))).id,
      }));
    },
  }),
);

const RotateWebhookSecretPayload = builder.objectRef<Payload<{ webhookSecret: string }>>('RotateWebhookSecretPayload').implement({
  description: 'The new signing secret, or why there is none.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    webhookSecret: t.string({ nullable: true, description: 'The new signing secret, shown only in this answer.', resolve: (p) => p.webhookSecret ?? null }),
  }),
});

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: RotateWebhookSecretPayload,
    description: 'A new webhook signing secret; for 24 hours deliveries carry signatures with both the old and the new one.',
    args: { input: t.arg({ type: InstanceOnlyInput('RotateWebhookSecretInput', 'The instance whose secret to rotate.'), required: true, description: 'The instance.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(() => ctx.services.instances.rotateWebhookSecret(actor, String(input.instanceId)));
    },
  }),
);
