import type { MessageRecord, SendResult } from '../../domain/messages/messages.ports.js';
import { builder } from '../builder.js';

const MessageStatus = builder.enumType('MessageStatus', { values: ['queued', 'sent', 'delivered', 'read', 'failed'] as const });
const MessageMode = builder.enumType('MessageMode', { values: ['test', 'production'] as const });
const MessageDirection = builder.enumType('MessageDirection', { values: ['in', 'out'] as const });

const MessageTimestamps = builder.objectRef<MessageRecord>('MessageTimestamps').implement({
  fields: (t) => ({
    queued: t.expose('queuedAt', { type: 'DateTime', nullable: true }),
    sent: t.expose('sentAt', { type: 'DateTime', nullable: true }),
    delivered: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    read: t.expose('readAt', { type: 'DateTime', nullable: true }),
    failed: t.expose('failedAt', { type: 'DateTime', nullable: true }),
  }),
});

const MessageType = builder.objectRef<MessageRecord>('Message').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    to: t.exposeString('to'),
    from: t.exposeString('from', { nullable: true }),
    direction: t.expose('direction', { type: MessageDirection }),
    type: t.exposeString('type'),
    text: t.exposeString('text', { nullable: true }),
    status: t.expose('status', { type: MessageStatus }),
    mode: t.expose('mode', { type: MessageMode }),
    instanceId: t.exposeString('instanceId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    timestamps: t.field({ type: MessageTimestamps, resolve: (message) => message }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const MessagePage = builder
  .objectRef<{ items: MessageRecord[]; page: number; limit: number; total: number; pages: number }>('MessagePage')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [MessageType], resolve: (page) => page.items }),
      page: t.exposeInt('page'),
      limit: t.exposeInt('limit'),
      total: t.exposeInt('total'),
      pages: t.exposeInt('pages'),
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
  t.field({
    type: MessagePage,
    errors: {},
    description: 'The tenant\'s messages, newest first.',
    args: { page: t.arg.int({ defaultValue: 1 }), limit: t.arg.int({ defaultValue: 10 }) },
    resolve: async (_root, args, ctx) => ctx.services.messages.list(await ctx.actor(), args),
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
