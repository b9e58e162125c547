import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import type { LiveQr } from '../../domain/instances/instances.service.js';
import { SESSION_STATUSES, sessionStatusOf, V1_STATUSES, v1StatusOf } from '../../domain/instances/state-machine.js';
import { DISCONNECT_REASONS } from '../../domain/network/engine.port.js';
import { type LastDisconnect, lastDisconnectOf } from '../../domain/instances/last-disconnect.js';
import { type Restriction, restrictionOf } from '../../domain/instances/restriction.js';
import { builder } from '../builder.js';
import { newestFirst } from '../../infra/db/list-scopes.js';
import { checkPageSize } from '../page-size.js';
import { NodeInterface } from './nodes.js';
import { entityConnection } from './connections.js';
import { MessageConnection } from './messages.js';
import { WebhookDeliveryConnection } from './webhook-deliveries.js';
import { WebhookEventEnum } from './webhook-events.js';

export { WebhookEventEnum };

export const InstanceVariantEnum = builder.enumType('InstanceVariant', {
  values: {
    V1: { value: 'v1', description: 'Created through /v1/chat/instances (API key).' },
    SESSION: { value: 'session', description: 'Created through /chat/instances (session cookie).' },
  } as const,
  description: 'Which REST API shape the instance was created through.',
});

export const InstanceStatusEnum = builder.enumType('InstanceStatus', {
  values: V1_STATUSES,
  description: `Status in the v1 vocabulary: ${V1_STATUSES.join(', ')}.`,
});

export const SessionStatusEnum = builder.enumType('SessionStatus', {
  values: SESSION_STATUSES,
  description: `Status in the session vocabulary: ${SESSION_STATUSES.join(', ')}.`,
});

export const DisconnectReasonEnum = builder.enumType('DisconnectReason', {
  values: DISCONNECT_REASONS,
  description: 'Why a connection closed (see the connection policy in docs/operating.md).',
});

const LastDisconnectType = builder.objectRef<LastDisconnect>('LastDisconnect').implement({
  description: "The instance's last closed connection.",
  fields: (t) => ({
    reason: t.field({ type: DisconnectReasonEnum, description: 'Why it closed.', resolve: (last) => last.reason }),
    at: t.expose('at', { type: 'DateTime', description: 'When it closed.' }),
  }),
});

const RestrictedType = builder.objectRef<Restriction>('Restricted').implement({
  description: "The network holding the instance's queue (a reach-out timelock, docs/settings.md).",
  fields: (t) => ({
    reason: t.exposeString('reason', { description: 'Why, as the engine reported it (reach_out_timelock).' }),
    until: t.expose('until', { type: 'DateTime', description: 'When the queue resumes by itself.' }),
  }),
});

export const QrCodeType = builder.objectRef<LiveQr>('QrCode').implement({
  description: 'A pairing code to scan with the phone; single use, expires.',
  fields: (t) => ({
    qrCode: t.exposeString('dataUrl', { description: 'The code as a PNG image: data:image/png;base64,…' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the code stops working.' }),
    attemptId: t.exposeString('attemptId', { description: 'Identifies this code among the attempts of a pairing.' }),
  }),
});

const Statistics = builder.objectRef<InstanceRecord>('InstanceStatistics').implement({
  description: 'What the instance has carried.',
  fields: (t) => ({
    messagesSent: t.exposeInt('messagesSent', { description: 'Messages handed to the chat network.' }),
    messagesReceived: t.exposeInt('messagesReceived', { description: 'Messages received from the chat network.' }),
    mediaSize: t.float({ description: 'Bytes of media sent.', resolve: (i) => Number(i.mediaSize) }),
  }),
});

export const InstanceType = builder.prismaObject('Instance', {
  description: 'A linked phone. Shows both status vocabularies, whichever API created it.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    name: t.exposeString('name', { description: "Unique within the tenant; 3 to 100 characters (v1) or 50 (session)." }),
    description: t.exposeString('description', { nullable: true, description: 'Free text (v1); null when there is none.' }),
    variant: t.expose('variant', { type: InstanceVariantEnum, description: 'Which REST API shape created it.' }),
    status: t.field({ type: InstanceStatusEnum, description: 'Its status in the v1 vocabulary.', resolve: (i) => v1StatusOf(i.state) }),
    sessionStatus: t.field({ type: SessionStatusEnum, description: 'Its status in the session vocabulary.', resolve: (i) => sessionStatusOf(i.state) }),
    phoneNumber: t.exposeString('phone', { nullable: true, description: 'The linked phone, +digits; null before a phone is linked.' }),
    active: t.exposeBoolean('active', { description: 'false: it carries no routed messages until activated again.' }),
    integration: t.exposeString('engine', { description: 'The chat network engine it runs on, e.g. CHAT-SANDBOX.' }),
    profilePicUrl: t.exposeString('profilePicUrl', { nullable: true, description: "The linked phone's profile picture, when the network shows one." }),
    webhookUrl: t.exposeString('webhookUrl', { nullable: true, description: 'Where its webhook events go; null when none is set.' }),
    webhookEvents: t.field({
      type: [WebhookEventEnum],
      description: 'The events its webhook receives.',
      resolve: (i) => i.webhookEvents,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    lastConnection: t.expose('lastConnection', { type: 'DateTime', nullable: true, description: 'When a phone last connected; null if none ever did.' }),
    lastDisconnect: t.field({
      type: LastDisconnectType,
      nullable: true,
      description: 'Why the connection last closed, and when; null if it never did.',
      resolve: (i) => lastDisconnectOf(i),
    }),
    restricted: t.field({
      type: RestrictedType,
      nullable: true,
      description: 'Set while the network holds its queue (nothing fails; it resumes at `until`); null otherwise.',
      resolve: (i) => restrictionOf(i),
    }),
    statistics: t.field({ type: Statistics, description: 'What it has carried.', resolve: (i) => i }),
    qrCode: t.field({
      type: QrCodeType,
      nullable: true,
      description: 'The live pairing code while the instance shows one; null otherwise.',
      resolve: (i, _args, ctx) => ctx.services.instances.currentQr(i),
    }),
    messages: t.relatedConnection(
      'messages',
      {
        cursor: 'id',
        totalCount: true,
        description: 'Its messages, newest first.',
        query: (args) => (checkPageSize(args), { orderBy: newestFirst }),
      },
      MessageConnection,
    ),
    webhookDeliveries: t.relatedConnection(
      'deliveries',
      {
        cursor: 'id',
        totalCount: true,
        description: 'Its webhook deliveries, newest first, with their attempts.',
        query: (args) => (checkPageSize(args), { orderBy: newestFirst }),
      },
      WebhookDeliveryConnection,
    ),
  }),
});

export const InstanceConnection = entityConnection(InstanceType, 'Instance', 'instances');
