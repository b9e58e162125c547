import { MEDIA_TYPES, MESSAGE_DIRECTIONS, MESSAGE_MODES, MESSAGE_STATUSES } from '../../domain/messages/message-values.js';
import type { MessageRecord, SendResult } from '../../domain/messages/messages.ports.js';
import { builder } from '../builder.js';
import { messageList } from '../../infra/db/list-scopes.js';

export const MessageStatus = builder.enumType('MessageStatus', { values: MESSAGE_STATUSES });
const MessageMode = builder.enumType('MessageMode', { values: MESSAGE_MODES });
const MessageDirection = builder.enumType('MessageDirection', { values: MESSAGE_DIRECTIONS });

const MessageTimestamps = builder.objectRef<Pick<MessageRecord, 'queuedAt' | 'sentAt' | 'deliveredAt' | 'readAt' | 'failedAt'>>('MessageTimestamps').implement({
  fields: (t) => ({
    queued: t.expose('queuedAt', { type: 'DateTime', nullable: true }),
    sent: t.expose('sentAt', { type: 'DateTime', nullable: true }),
    delivered: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    read: t.expose('readAt', { type: 'DateTime', nullable: true }),
    failed: t.expose('failedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const MessageType = builder.prismaObject('Message', {
  fields: (t) => ({
    id: t.exposeID('id'),
    to: t.exposeString('to'),
    from: t.exposeString('from', { nullable: true }),
    direction: t.expose('direction', { type: MessageDirection }),
    type: t.exposeString('type'),
    text: t.exposeString('text', { nullable: true }),
    mediaUrl: t.exposeString('mediaUrl', { nullable: true }),
    caption: t.exposeString('caption', { nullable: true }),
    status: t.expose('status', { type: MessageStatus }),
    mode: t.expose('mode', { type: MessageMode }),
    instanceId: t.exposeString('instanceId', { nullable: true }),
    instance: t.relation('instance', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    timestamps: t.field({ type: MessageTimestamps, resolve: (message) => message }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const SentMessage = builder.objectRef<SendResult>('SentMessage').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: MessageStatus }),
    timestamp: t.exposeString('timestamp'),
    mode: t.expose('mode', { type: MessageMode }),
  }),
});

builder.queryField('messages', (t) =>
  t.prismaConnection({
    type: 'Message',
    cursor: 'id',
    errors: {},
    description: "The tenant's messages, newest first.",
    resolve: async (query, _root, _args, ctx) => {
      const actor = await ctx.actor();
      return ctx.prisma.message.findMany({ ...query, ...messageList(actor.tenantId) });
    },
  }),
);

builder.queryField('message', (t) =>
  t.field({
    type: MessageType,
    errors: {},
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => ctx.services.messages.get(await ctx.actor(), String(id)),
  }),
);

builder.mutationField('sendMessage', (t) =>
  t.field({
    type: SentMessage,
    errors: {},
    description: 'Same rules as POST /v1/messages/send, including the test-key prefix and idempotency.',
    args: {
      to: t.arg.string({ required: true }),
      text: t.arg.string({ required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: async (_root, { to, text, idempotencyKey }, ctx) =>
      ctx.services.messages.send(await ctx.actor(), { to, text }, idempotencyKey ?? undefined),
  }),
);

const MediaType = builder.enumType('MediaType', { values: MEDIA_TYPES });

const SendMediaInput = builder.inputType('SendMediaInput', {
  fields: (t) => ({
    to: t.string({ required: true }),
    mediaUrl: t.string({ required: true, description: 'https, on a public address; at most 16 MiB.' }),
    mediaType: t.field({ type: MediaType, required: true }),
    caption: t.string(),
  }),
});

builder.mutationField('sendText', (t) =>
  t.field({
    type: SentMessage,
    errors: {},
    description: 'Same rules as POST /chat/instances/<id>/send-text.',
    args: {
      instanceId: t.arg.id({ required: true }),
      to: t.arg.string({ required: true }),
      message: t.arg.string({ required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: async (_root, { instanceId, to, message, idempotencyKey }, ctx) =>
      ctx.services.messages.sendText(await ctx.actor(), String(instanceId), { to, message }, idempotencyKey ?? undefined),
  }),
);

builder.mutationField('sendMedia', (t) =>
  t.field({
    type: SentMessage,
    errors: {},
    description: 'Same rules as POST /chat/instances/<id>/send-media.',
    args: {
      instanceId: t.arg.id({ required: true }),
      input: t.arg({ type: SendMediaInput, required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: async (_root, { instanceId, input, idempotencyKey }, ctx) =>
      ctx.services.messages.sendMedia(await ctx.actor(), String(instanceId), input, idempotencyKey ?? undefined),
  }),
);
