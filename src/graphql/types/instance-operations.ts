import { builder } from '../builder.js';
import { InstanceType, InstanceVariantEnum, QrCodeType } from './instances.js';
import { instanceList } from '../../infra/db/list-scopes.js';

/** Instance queries and mutations (spec 4.2 and 4.3); each calls the instance service REST uses. */

builder.queryField('instances', (t) =>
  t.prismaConnection({
    type: 'Instance',
    cursor: 'id',
    errors: {},
    description: "The tenant's instances, oldest first (as GET /v1/chat/instances).",
    resolve: async (query, _root, _args, ctx) => {
      const actor = await ctx.actor();
      return ctx.prisma.instance.findMany({ ...query, ...instanceList(actor.tenantId) });
    },
  }),
);

builder.queryField('instance', (t) =>
  t.field({
    type: InstanceType,
    errors: {},
    args: { id: t.arg.id({ required: true }) },
    // The tenancy-checked lookup of GET …/instances/<id>; the QR code, when asked for, is its own field.
    resolve: async (_root, { id }, ctx) => ctx.services.instances.ownedInstance(await ctx.actor(), String(id)),
  }),
);

const CreateInstanceInput = builder.inputType('CreateInstanceInput', {
  fields: (t) => ({
    variant: t.field({ type: InstanceVariantEnum, defaultValue: 'v1', description: 'V1 answers with a QR code; SESSION issues one right after.' }),
    name: t.string({ required: true }),
    description: t.string({ description: 'V1 only.' }),
    webhookUrl: t.string(),
    webhookEvents: t.stringList({ description: 'V1 only; all events of the variant when omitted.' }),
  }),
});

const UpdateInstanceInput = builder.inputType('UpdateInstanceInput', {
  description: 'Omitted fields stay as they are; webhookUrl "" or null removes the webhook.',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    webhookUrl: t.string(),
    webhookEvents: t.stringList(),
  }),
});

const CreatedInstance = builder
  .objectRef<{ instance: typeof InstanceType.$inferType; qr: typeof QrCodeType.$inferType | null }>('CreatedInstance')
  .implement({
    fields: (t) => ({
      instance: t.field({ type: InstanceType, resolve: (created) => created.instance }),
      qrCode: t.field({ type: QrCodeType, nullable: true, resolve: (created) => created.qr }),
      webhookSecret: t.string({
        description: 'Signs every webhook delivery of this instance; keep it to verify them.',
        resolve: (created) => created.instance.webhookSecret,
      }),
    }),
  });

const InstanceWithQr = builder
  .objectRef<{ instance: typeof InstanceType.$inferType; qr: typeof QrCodeType.$inferType }>('InstanceWithQrCode')
  .implement({
    fields: (t) => ({
      instance: t.field({ type: InstanceType, resolve: (r) => r.instance }),
      qrCode: t.field({ type: QrCodeType, resolve: (r) => r.qr }),
    }),
  });

builder.mutationField('createInstance', (t) =>
  t.field({
    type: CreatedInstance,
    errors: {},
    args: { input: t.arg({ type: CreateInstanceInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { variant, ...body } = input;
      // An omitted field is absent and an explicit null is null, as in a REST body.
      return ctx.services.instances.create(await ctx.actor(), variant ?? 'v1', body);
    },
  }),
);

builder.mutationField('updateInstance', (t) =>
  t.field({
    type: InstanceType,
    errors: {},
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInstanceInput, required: true }) },
    resolve: async (_root, { id, input }, ctx) =>
      (await ctx.services.instances.update(await ctx.actor(), String(id), input)).instance,
  }),
);

builder.mutationField('deleteInstance', (t) =>
  t.field({
    type: 'Boolean',
    errors: {},
    description: 'Deletes the instance permanently, with its messages and deliveries.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await ctx.services.instances.remove(await ctx.actor(), String(id));
      return true;
    },
  }),
);

const SetInstanceActiveInput = builder.inputType('SetInstanceActiveInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    active: t.boolean({ required: true, description: 'false: the instance carries no routed messages until it is active again.' }),
  }),
});

builder.mutationField('setInstanceActive', (t) =>
  t.field({
    type: InstanceType,
    errors: {},
    description: 'Activates or deactivates the instance; idempotent (a retry leaves it as asked).',
    args: { input: t.arg({ type: SetInstanceActiveInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ctx.services.instances.setActive(await ctx.actor(), String(input.id), input.active),
  }),
);

builder.mutationField('requestQrCode', (t) =>
  t.field({
    type: QrCodeType,
    errors: {},
    description: 'The live pairing code, or a new one (as GET /v1/chat/instances/<id>/qr).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => ctx.services.instances.qrCode(await ctx.actor(), String(id)),
  }),
);

builder.mutationField('regenerateQrCode', (t) =>
  t.field({
    type: InstanceWithQr,
    errors: {},
    description: 'Starts a new set of QR attempts (as POST /chat/instances/<id>/regenerate-qr).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => ctx.services.instances.regenerateQr(await ctx.actor(), String(id)),
  }),
);

builder.mutationField('disconnectInstance', (t) =>
  t.field({
    type: InstanceType,
    errors: {},
    description: 'Logs the phone out; the instance can pair again.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => ctx.services.instances.disconnect(await ctx.actor(), String(id)),
  }),
);
