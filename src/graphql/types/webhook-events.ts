import { SESSION_EVENTS, V1_EVENTS } from '../../domain/events/catalogue.js';
import { builder } from '../builder.js';

/** Event names have dots, which GraphQL enum names cannot: MESSAGES_UPSERT is messages.upsert. */
const EVENTS = [...new Set<string>([...V1_EVENTS, ...SESSION_EVENTS])];

export const WebhookEventEnum = builder.enumType('WebhookEvent', {
  values: Object.fromEntries(
    EVENTS.map((event) => [event.replace('.', '_').toUpperCase(), { value: event, description: `The ${event} event (docs/webhooks.md).` }]),
  ) as Record<string, { value: string; description: string }>,
  description: 'A webhook event name; each variant accepts its own events (docs/webhooks.md).',
});
