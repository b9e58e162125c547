import type { InstanceEventKind, LiveEvent } from '../../domain/network/live-events.js';
import type { MessageStatus as MessageStatusValue } from '../../domain/messages/message-values.js';
import { MessageStatusEnum } from './messages.js';
import { DisconnectReasonEnum } from './instances.js';
import { asDisconnectReason } from '../../domain/instances/last-disconnect.js';
import { SESSION_STATUSES, V1_STATUSES } from '../../domain/instances/state-machine.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { toGraphQLError } from '../graphql-error.js';
import { liveConnectionEvent, liveEventKey, liveQrEvent } from '../../domain/network/live-events.js';
import { startingWithState } from '../../domain/network/live-state.js';

/** Events carry the instance itself, read as the event is delivered. */
const CURRENT_INSTANCE = 'The instance as it is when the event is delivered, so a client cache updates itself from the event.';

type QrEvent = Extract<LiveEvent, { kind: 'qr' }>;
type ConnectionEvent = Extract<LiveEvent, { kind: 'connection' }>;
type InstanceEvent = Extract<LiveEvent, { kind: 'instance' }>;
type MessageEvent = Extract<LiveEvent, { kind: 'message' }>;
type ReceivedEvent = Extract<LiveEvent, { kind: 'received' }>;

const QrUpdate = builder.objectRef<QrEvent>('QrUpdate').implement({
  description: 'A pairing code the instance shows.',
  fields: (t) => ({
    instanceId: t.exposeID('instanceId', { description: 'The instance.' }),
    qrCode: t.exposeString('qrCode', { description: 'The code as a PNG image: data:image/png;base64,…' }),
    // The same shape as QrCode: an instant is a DateTime everywhere.
    expiresAt: t.field({ type: 'DateTime', description: 'When the code stops working.', resolve: (event) => new Date(event.expiresAt) }),
    attemptId: t.exposeString('attemptId', { description: 'Identifies this code among the attempts of a pairing.' }),
    instance: t.prismaField({
      type: 'Instance',
      description: CURRENT_INSTANCE,
      resolve: (query, event, _args, ctx) => ctx.prisma.instance.findUniqueOrThrow({ ...query, where: { id: event.instanceId } }),
    }),
  }),
});

/** Both status vocabularies in one enum: an event shows the instance's own words (v1 or session). */
const ConnectionStatus = builder.enumType('ConnectionStatus', {
  values: [...new Set<string>([...V1_STATUSES, ...SESSION_STATUSES])],
  description: "An instance's status in its own vocabulary: v1 (initializing, qr_code, connecting, connected, disconnected, error) or session (created, qr, connected, disconnected, banned).",
});

const ConnectionUpdate = builder.objectRef<ConnectionEvent>('ConnectionUpdate').implement({
  description: "A change of an instance's connection status.",
  fields: (t) => ({
    instanceId: t.exposeID('instanceId', { description: 'The instance.' }),
    status: t.field({ type: ConnectionStatus, description: "In the instance's own status words (v1 or session), as in its webhooks; `instance.status` is always in v1 words and `instance.sessionStatus` in session words.", resolve: (event) => event.status }),
    phoneNumber: t.string({
      nullable: true,
      description: 'The linked phone, +digits as everywhere else in the API; null before a phone is linked.',
      resolve: (event) => (event.phoneNumber ? `+${event.phoneNumber}` : null),
    }),
    reason: t.field({
      type: DisconnectReasonEnum,
      nullable: true,
      description: 'Why the connection closed, when a close caused this change; null otherwise.',
      resolve: (event) => asDisconnectReason(event.reason),
    }),
    timestamp: t.field({ type: 'DateTime', description: 'When the status changed.', resolve: (event) => new Date(event.timestamp) }),
    instance: t.prismaField({
      type: 'Instance',
      description: CURRENT_INSTANCE,
      resolve: (query, event, _args, ctx) => ctx.prisma.instance.findUniqueOrThrow({ ...query, where: { id: event.instanceId } }),
    }),
  }),
});

/**
 * The events of one instance of the caller's tenant. Refusals come back as GraphQL errors with the
 * REST code in `extensions.code` (a subscription's stream cannot carry a typed error union).
 */
async function feedOf<K extends InstanceEventKind>(ctx: GraphQLContext, instanceId: string, kind: K) {
  let actor;
  try {
    actor = await ctx.actor();
    await ctx.services.instances.ownedInstance(actor, instanceId);
  } catch (error) {
    throw toGraphQLError(error);
  }
  const caller = actor;
  return startingWithState<Extract<LiveEvent, { kind: K }>>({
    feed: ctx.live.subscribe(instanceId, kind),
    current: async () => {
      const now = await ctx.services.instances.get(caller, instanceId);
      return (kind === 'qr' ? liveQrEvent(now) : liveConnectionEvent(now.instance)) as Extract<LiveEvent, { kind: K }> | null;
    },
    keyOf: liveEventKey,
    onResumed: ctx.live.onResumed,
    attached: ctx.live.attached,
    onError: (error) => ctx.inBackground(() => Promise.reject(error)),
  });
}

builder.subscriptionField('qrUpdated', (t) =>
  t.field({
    type: QrUpdate,
    description: 'The QR code the instance shows now (when one is live), then each new one.',
    args: { instanceId: t.arg.id({ required: true, description: 'The instance.' }) },
    subscribe: (_root, { instanceId }, ctx) => feedOf(ctx, String(instanceId), 'qr'),
    resolve: (event) => event,
  }),
);

builder.subscriptionField('connectionUpdated', (t) =>
  t.field({
    type: ConnectionUpdate,
    description: 'The status of the instance now, then each change.',
    args: { instanceId: t.arg.id({ required: true, description: 'The instance.' }) },
    subscribe: (_root, { instanceId }, ctx) => feedOf(ctx, String(instanceId), 'connection'),
    resolve: (event) => event,
  }),
);

const InstanceUpdate = builder.objectRef<InstanceEvent>('InstanceUpdate').implement({
  description: "A change to one of the caller's instances.",
  fields: (t) => ({
    instanceId: t.exposeID('instanceId', { description: 'The instance.' }),
    deleted: t.exposeBoolean('deleted', { description: 'The instance was deleted; `instance` is null.' }),
    instance: t.prismaField({
      type: 'Instance',
      nullable: true,
      description: `${CURRENT_INSTANCE} Null once deleted.`,
      resolve: (query, event, _args, ctx) => (event.deleted ? null : ctx.prisma.instance.findUnique({ ...query, where: { id: event.instanceId } })),
    }),
  }),
});

const MessageUpdate = builder.objectRef<MessageEvent>('MessageUpdate').implement({
  description: "A status change of one of the caller's messages.",
  fields: (t) => ({
    messageId: t.exposeID('messageId', { description: 'The message.' }),
    status: t.field({ type: MessageStatusEnum, description: 'Its new status.', resolve: (event) => event.status as MessageStatusValue }),
    timestamp: t.field({ type: 'DateTime', description: 'When it changed.', resolve: (event) => new Date(event.timestamp) }),
    message: t.prismaField({
      type: 'Message',
      nullable: true,
      description: 'The message as it is now (read only when selected); null once deleted with its instance.',
      resolve: (query, event, _args, ctx) => ctx.prisma.message.findUnique({ ...query, where: { id: event.messageId } }),
    }),
  }),
});

/** Every event of one kind for the caller's tenant; a failure to authenticate is a GraphQL error with its code. */
async function tenantFeedOf<K extends 'instance' | 'message' | 'received'>(ctx: GraphQLContext, kind: K) {
  try {
    const actor = await ctx.actor();
    return ctx.live.subscribeTenant(actor.tenantId, kind);
  } catch (error) {
    throw toGraphQLError(error);
  }
}

builder.subscriptionField('instanceUpdated', (t) =>
  t.field({
    type: InstanceUpdate,
    description: "Every change to any of the caller's instances from now on (status, phone, name, active, a new QR code, creation, deletion): one subscription keeps a list live.",
    subscribe: (_root, _args, ctx) => tenantFeedOf(ctx, 'instance'),
    resolve: (event) => event,
  }),
);

builder.subscriptionField('messageUpdated', (t) =>
  t.field({
    type: MessageUpdate,
    description: "Every status change of the caller's messages from now on (sent, delivered, read, failed): a live message log.",
    subscribe: (_root, _args, ctx) => tenantFeedOf(ctx, 'message'),
    resolve: (event) => event,
  }),
);

const MessageReceived = builder.objectRef<ReceivedEvent>('MessageReceived').implement({
  description: "A message one of the caller's instances received.",
  fields: (t) => ({
    messageId: t.exposeID('messageId', { description: 'The message.' }),
    instanceId: t.exposeID('instanceId', { description: 'The instance that received it.' }),
    timestamp: t.field({ type: 'DateTime', description: 'When it arrived.', resolve: (event) => new Date(event.timestamp) }),
    message: t.prismaField({
      type: 'Message',
      nullable: true,
      description: 'The message (read only when selected); null once deleted with its instance.',
      resolve: (query, event, _args, ctx) => ctx.prisma.message.findUnique({ ...query, where: { id: event.messageId } }),
    }),
  }),
});

/**
 * Received messages of the tenant, or of one of its instances. Ending it ends the feed at once (an
 * async generator would first wait for the next message, keeping the subscription open).
 */
async function receivedFeed(ctx: GraphQLContext, instanceId: string | null): Promise<AsyncIterableIterator<ReceivedEvent>> {
  if (instanceId !== null) {
    try {
      await ctx.services.instances.ownedInstance(await ctx.actor(), instanceId);
    } catch (error) {
      throw toGraphQLError(error);
    }
  }
  const feed = await tenantFeedOf(ctx, 'received');
  const iterator: AsyncIterableIterator<ReceivedEvent> = {
    async next() {
      for (;;) {
        const step = await feed.next();
        if (step.done || instanceId === null || step.value.instanceId === instanceId) return step;
      }
    },
    return: async () => (await feed.return?.()) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

builder.subscriptionField('messageReceived', (t) =>
  t.field({
    type: MessageReceived,
    description: "Every message the caller's instances receive from now on; only one instance's when `instanceId` is given.",
    args: { instanceId: t.arg.id({ description: 'Only the messages this instance receives.' }) },
    subscribe: (_root, { instanceId }, ctx) => receivedFeed(ctx, instanceId == null ? null : String(instanceId)),
    resolve: (event) => event,
  }),
);
