import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import type { LiveQr } from '../../domain/instances/instances.service.js';
import { statesShowing } from '../../domain/instances/state-machine.js';
import { builder } from '../builder.js';
import { instanceList } from '../../infra/db/list-scopes.js';
import { checkPageSize } from '../page-size.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';
import {
  InstanceConnection,
  InstanceStatusEnum,
  InstanceType,
  InstanceVariantEnum,
  QrCodeType,
  SessionStatusEnum,
  WebhookEventEnum,
} from './instances.js';
import { visible } from '../visible.js';
import { credentialsFields } from './credentials-inputs.js';

/** Instance queries and mutations (both API variants); each calls the instance service REST uses. */

const InstanceFilter = builder.inputType('InstanceFilter', {
  description: 'Narrows an instance list; every field given must match.',
  fields: (t) => ({
    status: t.field({ type: InstanceStatusEnum, description: 'Only instances with this v1 status.' }),
    sessionStatus: t.field({ type: SessionStatusEnum, description: 'Only instances with this session status.' }),
    active: t.boolean({ description: 'Only active (true) or deactivated (false) instances.' }),
  }),
});

function instanceScope(tenantId: string, filter: typeof InstanceFilter.$inferInput | null | undefined) {
  const statuses = filter && (filter.status != null || filter.sessionStatus != null) ? statesShowing(filter) : undefined;
  return instanceList(tenantId, { states: statuses, active: filter?.active });
}

builder.queryField('instances', (t) =>
  t.prismaConnection(
    {
      type: 'Instance',
      cursor: 'id',
      description: "The tenant's instances, oldest first (as GET /v1/chat/instances).",
      args: { filter: t.arg({ type: InstanceFilter, description: 'Only the instances that match.' }) },
      resolve: async (query, _root, args, ctx) => {
        checkPageSize(args);
        return ctx.prisma.instance.findMany({ ...query, ...instanceScope((await ctx.actor()).tenantId, args.filter) });
      },
      totalCount: async (_connection, args, ctx) =>
        ctx.prisma.instance.count({ where: instanceScope((await ctx.actor()).tenantId, args.filter).where }),
    },
    InstanceConnection,
  ),
);

builder.queryField('instance', (t) =>
  t.field({
    type: InstanceType,
    nullable: true,
    description: "One of the tenant's instances; null with a not_found error when there is none (or it is another tenant's).",
    args: { id: t.arg.id({ required: true, description: 'The instance id.' }) },
    resolve: async (_root, { id }, ctx) => visible(ctx.services.instances.ownedInstance(await ctx.actor(), String(id)), 'Instance'),
  }),
);

const CreateInstanceInput = builder.inputType('CreateInstanceInput', {
  description: 'A new instance (as POST /v1/chat/instances or POST /chat/instances).',
  fields: (t) => ({
    variant: t.field({ type: InstanceVariantEnum, defaultValue: 'v1', description: 'V1 answers with a QR code; SESSION issues one right after.' }),
    name: t.string({ required: true, description: 'Unique within the tenant; 3 to 100 characters (v1) or 50 (session).' }),
    description: t.string({ description: 'V1 only; at most 500 characters.' }),
    webhookUrl: t.string({ description: 'https, on a public address.' }),
    webhookEvents: t.field({ type: [WebhookEventEnum], description: 'V1 only; all events of the variant when omitted.' }),
    integration: t.string({ description: 'The chat network engine, one of `integrations`; the first of them when omitted.' }),
    ...credentialsFields(t, 'create'),
  }),
});


const UpdateInstanceInput = builder.inputType('UpdateInstanceInput', {
  description: 'Omitted fields stay as they are; webhookUrl "" or null removes the webhook.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The instance to change.' }),
    name: t.string({ description: 'A new name, unique within the tenant.' }),
    description: t.string({ description: 'V1 only.' }),
    webhookUrl: t.string({ description: 'https, on a public address; "" or null removes it.' }),
    webhookEvents: t.field({ type: [WebhookEventEnum], description: "V1 only; null sets every event of the instance's variant." }),
    ...credentialsFields(t, 'replace'),
  }),
});

const InstanceIdInput = (name: string, description: string) =>
  builder.inputType(name, {
    description,
    fields: (t) => ({ id: t.id({ required: true, description: 'The instance.' }) }),
  });

type InstancePayloadShape = Payload<{ instance: InstanceRecord }>;

const InstancePayload = (name: string, description: string) =>
  builder.objectRef<InstancePayloadShape>(name).implement({
    description,
    interfaces: [MutationPayload],
    fields: (t) => ({
      instance: t.field({ type: InstanceType, nullable: true, description: 'The instance as it is now; null when nothing was done.', resolve: (p) => p.instance ?? null }),
    }),
  });

type QrPayloadShape = Payload<{ instance: InstanceRecord; qr: LiveQr | null }>;

const QrPayload = (name: string, description: string) =>
  builder.objectRef<QrPayloadShape>(name).implement({
    description,
    interfaces: [MutationPayload],
    fields: (t) => ({
      instance: t.field({ type: InstanceType, nullable: true, description: 'The instance as it is now; null when nothing was done.', resolve: (p) => p.instance ?? null }),
      qrCode: t.field({ type: QrCodeType, nullable: true, description: 'The pairing code to show; null when there is none.', resolve: (p) => p.qr ?? null }),
    }),
  });

const CreateInstancePayload = builder.objectRef<QrPayloadShape>('CreateInstancePayload').implement({
  description: 'The created instance, with its first QR code (v1) and its webhook secret.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    instance: t.field({ type: InstanceType, nullable: true, description: 'The new instance; null when refused.', resolve: (p) => p.instance ?? null }),
    qrCode: t.field({ type: QrCodeType, nullable: true, description: 'V1: its first pairing code. SESSION: null (the first code follows at once; subscribe to qrUpdated).', resolve: (p) => p.qr ?? null }),
    webhookSecret: t.string({
      nullable: true,
      description: 'Signs every webhook delivery of this instance; keep it to verify them. Shown only here.',
      resolve: (p) => p.instance?.webhookSecret ?? null,
    }),
  }),
});

builder.mutationField('createInstance', (t) =>
  t.field({
    type: CreateInstancePayload,
    description: 'Creates an instance of either variant, within the plan\'s instance limit.',
    args: { input: t.arg({ type: CreateInstanceInput, required: true, description: 'The new instance.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { variant, ...body } = input;
      const actor = await ctx.actor();
      // An omitted field is absent and an explicit null is null, as in a REST body.
      return payloadOf(() => ctx.services.instances.create(actor, variant ?? 'v1', body));
    },
  }),
);

const UpdateInstancePayload = InstancePayload('UpdateInstancePayload', 'The changed instance, or why it was not changed.');
builder.mutationField('updateInstance', (t) =>
  t.field({
    type: UpdateInstancePayload,
    description: 'Changes name, description or webhook settings (as PUT …/instances/<id>).',
    args: { input: t.arg({ type: UpdateInstanceInput, required: true, description: 'What to change.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { id, ...patch } = input;
      const actor = await ctx.actor();
      return payloadOf(async () => ({ instance: (await ctx.services.instances.update(actor, String(id), patch)).instance }));
    },
  }),
);

const DeleteInstancePayload = builder.objectRef<Payload<{ deletedInstanceId: string }>>('DeleteInstancePayload').implement({
  description: 'The id of the deleted instance, or why it was not deleted.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    deletedInstanceId: t.id({ nullable: true, description: 'The id of the instance that is gone (evict it from a cache); null when nothing was deleted.', resolve: (p) => p.deletedInstanceId ?? null }),
  }),
});

builder.mutationField('deleteInstance', (t) =>
  t.field({
    type: DeleteInstancePayload,
    description: 'Deletes the instance permanently, with its messages and deliveries.',
    args: { input: t.arg({ type: InstanceIdInput('DeleteInstanceInput', 'The instance to delete.'), required: true, description: 'The instance.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => {
        await ctx.services.instances.remove(actor, String(input.id));
        return { deletedInstanceId: String(input.id) };
      });
    },
  }),
);

const SetInstanceActiveInput = builder.inputType('SetInstanceActiveInput', {
  description: 'Whether the instance carries messages.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The instance.' }),
    active: t.boolean({ required: true, description: 'false: the instance carries no routed messages until it is active again.' }),
  }),
});

const SetInstanceActivePayload = InstancePayload('SetInstanceActivePayload', 'The instance with its new `active`, or why it did not change.');
builder.mutationField('setInstanceActive', (t) =>
  t.field({
    type: SetInstanceActivePayload,
    description: 'Activates or deactivates the instance; idempotent (a retry leaves it as asked).',
    args: { input: t.arg({ type: SetInstanceActiveInput, required: true, description: 'The instance and the wanted state.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({ instance: await ctx.services.instances.setActive(actor, String(input.id), input.active) }));
    },
  }),
);

const RequestQrCodePayload = QrPayload('RequestQrCodePayload', 'The code to scan, or why there is none.');
builder.mutationField('requestQrCode', (t) =>
  t.field({
    type: RequestQrCodePayload,
    description: 'The live pairing code, or a new one (as GET /v1/chat/instances/<id>/qr).',
    args: { input: t.arg({ type: InstanceIdInput('RequestQrCodeInput', 'The instance to pair.'), required: true, description: 'The instance.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => {
        const qr = await ctx.services.instances.qrCode(actor, String(input.id));
        return { qr, instance: await ctx.services.instances.ownedInstance(actor, String(input.id)) };
      });
    },
  }),
);

const RegenerateQrCodePayload = QrPayload('RegenerateQrCodePayload', 'The new code to scan, or why there is none.');
builder.mutationField('regenerateQrCode', (t) =>
  t.field({
    type: RegenerateQrCodePayload,
    description: 'Starts a new set of QR attempts (as POST /chat/instances/<id>/regenerate-qr).',
    args: { input: t.arg({ type: InstanceIdInput('RegenerateQrCodeInput', 'The instance to pair.'), required: true, description: 'The instance.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(() => ctx.services.instances.regenerateQr(actor, String(input.id)));
    },
  }),
);

const RequestPairingCodeInput = builder.inputType('RequestPairingCodeInput', {
  description: 'The phone that will enter the code.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The instance to pair.' }),
    phone: t.string({ required: true, description: 'The number of the phone to link, country code first: digits, with or without + and single spaces or dashes (+55 11 99999-0001).' }),
  }),
});

type PairingCodeShape = Payload<{ code: string; expiresAt: Date; instance: InstanceRecord }>;
const RequestPairingCodePayload = builder.objectRef<PairingCodeShape>('RequestPairingCodePayload').implement({
  description: 'A code to enter on the phone instead of scanning a QR code, or why there is none.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    code: t.string({ nullable: true, description: 'The 8 characters to enter on the phone (Linked devices → Link with phone number); null when refused.', resolve: (p) => p.code ?? null }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When the code stops working.', resolve: (p) => p.expiresAt ?? null }),
    instance: t.field({ type: InstanceType, nullable: true, description: 'The instance as it is now; null when refused.', resolve: (p) => p.instance ?? null }),
  }),
});

builder.mutationField('requestPairingCode', (t) =>
  t.field({
    type: RequestPairingCodePayload,
    description: 'A pairing code for the phone to enter (as POST …/instances/<id>/pairing-code); starts a pairing if none runs.',
    args: { input: t.arg({ type: RequestPairingCodeInput, required: true, description: 'The instance and the phone.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => {
        const pairing = await ctx.services.instances.requestPairingCode(actor, String(input.id), { phone: input.phone });
        return { ...pairing, instance: await ctx.services.instances.ownedInstance(actor, String(input.id)) };
      });
    },
  }),
);

const DisconnectInstancePayload = InstancePayload('DisconnectInstancePayload', 'The logged-out instance, or why it was not.');
builder.mutationField('disconnectInstance', (t) =>
  t.field({
    type: DisconnectInstancePayload,
    description: 'Logs the phone out; the instance can pair again.',
    args: { input: t.arg({ type: InstanceIdInput('DisconnectInstanceInput', 'The instance to log out.'), required: true, description: 'The instance.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => ({ instance: await ctx.services.instances.disconnect(actor, String(input.id)) }));
    },
  }),
);
