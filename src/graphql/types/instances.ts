import type { InstanceRecord } from '../../domain/instances/instances.ports.js';
import type { LiveQr } from '../../domain/instances/instances.service.js';
import { SESSION_STATUSES, sessionStatusOf, V1_STATUSES, v1StatusOf } from '../../domain/instances/state-machine.js';
import { builder } from '../builder.js';
import { newestFirst } from '../../infra/db/list-scopes.js';

export const InstanceVariantEnum = builder.enumType('InstanceVariant', {
  values: { V1: { value: 'v1' }, SESSION: { value: 'session' } } as const,
  description: 'Which REST API shape the instance was created through (spec 4.2 or 4.3).',
});
const V1Status = builder.enumType('InstanceStatus', {
  values: V1_STATUSES,
  description: 'Status in the v1 vocabulary.',
});
const SessionStatus = builder.enumType('SessionStatus', {
  values: SESSION_STATUSES,
  description: 'Status in the session vocabulary.',
});

export const QrCodeType = builder.objectRef<LiveQr>('QrCode').implement({
  description: 'A pairing code as a PNG data URL; single use, expires.',
  fields: (t) => ({
    qrCode: t.exposeString('dataUrl', { description: 'data:image/png;base64,…' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    attemptId: t.exposeString('attemptId'),
  }),
});

const Statistics = builder.objectRef<InstanceRecord>('InstanceStatistics').implement({
  fields: (t) => ({
    messagesSent: t.exposeInt('messagesSent'),
    messagesReceived: t.exposeInt('messagesReceived'),
    mediaSize: t.float({ description: 'Bytes of media sent.', resolve: (i) => Number(i.mediaSize) }),
  }),
});

export const InstanceType = builder.prismaObject('Instance', {
  description: 'A linked phone. Shows both status vocabularies, whichever API created it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    variant: t.expose('variant', { type: InstanceVariantEnum }),
    status: t.field({ type: V1Status, resolve: (i) => v1StatusOf(i.state) }),
    sessionStatus: t.field({ type: SessionStatus, resolve: (i) => sessionStatusOf(i.state) }),
    phoneNumber: t.exposeString('phone', { nullable: true }),
    active: t.exposeBoolean('active'),
    integration: t.exposeString('engine'),
    profilePicUrl: t.exposeString('profilePicUrl', { nullable: true }),
    webhookUrl: t.exposeString('webhookUrl', { nullable: true }),
    webhookEvents: t.exposeStringList('webhookEvents'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    lastConnection: t.expose('lastConnection', { type: 'DateTime', nullable: true }),
    statistics: t.field({ type: Statistics, resolve: (i) => i }),
    qrCode: t.field({
      type: QrCodeType,
      nullable: true,
      description: 'The live pairing code while the instance shows one.',
      resolve: (i, _args, ctx) => ctx.services.instances.currentQr(i),
    }),
    messages: t.relatedConnection('messages', { cursor: 'id', query: { orderBy: newestFirst } }),
    webhookDeliveries: t.relatedConnection('deliveries', {
      cursor: 'id',
      description: 'Webhook deliveries, newest first, with their attempts.',
      query: { orderBy: newestFirst },
    }),
  }),
});
