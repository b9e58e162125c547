import type { LiveEvent } from '../../domain/instances/live-events.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { toGraphQLError } from '../graphql-error.js';
import { liveConnectionEvent, liveEventKey, liveQrEvent } from '../../domain/instances/live-events.js';
import { startingWithState } from '../../domain/instances/live-state.js';

type QrEvent = Extract<LiveEvent, { kind: 'qr' }>;
type ConnectionEvent = Extract<LiveEvent, { kind: 'connection' }>;

const QrUpdate = builder.objectRef<QrEvent>('QrUpdate').implement({
  fields: (t) => ({
    instanceId: t.exposeID('instanceId'),
    qrCode: t.exposeString('qrCode', { description: 'data:image/png;base64,…' }),
    // The same shape as QrCode: an instant is a DateTime everywhere.
    expiresAt: t.field({ type: 'DateTime', resolve: (event) => new Date(event.expiresAt) }),
    attemptId: t.exposeString('attemptId'),
  }),
});

const ConnectionUpdate = builder.objectRef<ConnectionEvent>('ConnectionUpdate').implement({
  fields: (t) => ({
    instanceId: t.exposeID('instanceId'),
    status: t.exposeString('status', { description: "In the instance's own status words (v1 or session), as in its webhooks." }),
    phoneNumber: t.exposeString('phoneNumber', { description: 'Digits only; empty before a phone is linked.' }),
    timestamp: t.exposeString('timestamp', { description: 'ISO 8601.' }),
  }),
});

/**
 * The events of one instance of the caller's tenant. Refusals come back as GraphQL errors with the
 * REST code in `extensions.code` (a subscription's stream cannot carry a typed error union).
 */
async function feedOf<K extends LiveEvent['kind']>(ctx: GraphQLContext, instanceId: string, kind: K) {
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
    onError: (error) => ctx.inBackground(() => Promise.reject(error)),
  });
}

builder.subscriptionField('qrUpdated', (t) =>
  t.field({
    type: QrUpdate,
    description: 'The QR code the instance shows now (when one is live), then each new one.',
    args: { instanceId: t.arg.id({ required: true }) },
    subscribe: (_root, { instanceId }, ctx) => feedOf(ctx, String(instanceId), 'qr'),
    resolve: (event) => event,
  }),
);

builder.subscriptionField('connectionUpdated', (t) =>
  t.field({
    type: ConnectionUpdate,
    description: 'The status of the instance now, then each change.',
    args: { instanceId: t.arg.id({ required: true }) },
    subscribe: (_root, { instanceId }, ctx) => feedOf(ctx, String(instanceId), 'connection'),
    resolve: (event) => event,
  }),
);
