import { DELIVERY_STATUSES } from '../../domain/webhooks/deliveries.service.js';
import { builder } from '../builder.js';
import { entityConnection } from './connections.js';
import { WebhookEventEnum } from './webhook-events.js';
import { NodeInterface } from './nodes.js';

/** The webhook delivery log: each event sent to an instance's webhook, with its attempts. */

const DeliveryStatusEnum = builder.enumType('DeliveryStatus', {
  values: DELIVERY_STATUSES,
  description: 'pending: will be attempted (again); delivered: a 2xx answer; failed: out of attempts; cancelled: the webhook changed.',
});

builder.prismaObject('WebhookAttempt', {
  description: 'One try to deliver a webhook event.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: '1 for the first try.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When it started.' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when it did not answer." }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed, in words; null on success.' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long it took, in milliseconds.' }),
  }),
});

export const WebhookDeliveryType = builder.prismaObject('WebhookDelivery', {
  description: 'One webhook event for one instance, retried until delivered or out of attempts.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    event: t.field({ type: WebhookEventEnum, description: 'Which event.', resolve: (d) => d.event }),
    url: t.exposeString('url', { description: 'Where it is sent.' }),
    status: t.expose('status', { type: DeliveryStatusEnum, description: 'Where the delivery stands.' }),
    attemptCount: t.exposeInt('attemptCount', { description: 'How many tries so far.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the next try is due; null when none will follow.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event happened.' }),
    payload: t.exposeString('payload', { description: 'The exact body every attempt sends (JSON).' }),
    attempts: t.relation('attempts', { description: 'Its tries, first first.', query: { orderBy: { number: 'asc' } } }),
  }),
});

export const WebhookDeliveryConnection = entityConnection(WebhookDeliveryType, 'WebhookDelivery', 'webhook deliveries');
