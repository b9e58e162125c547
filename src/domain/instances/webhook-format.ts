import { z } from 'zod';

/** The body an instance's webhook deliveries carry: its variant's (`gateway`), or Evolution API's (docs/evolution.md, "Webhooks"). */
export const WEBHOOK_FORMATS = ['gateway', 'evolution'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const webhookFormatInput = z
  .enum(WEBHOOK_FORMATS, { error: `must be one of ${WEBHOOK_FORMATS.join(', ')}` })
  .meta({ description: "the body of the webhook's deliveries: the variant's own (gateway, the default) or Evolution API v2's (evolution, docs/evolution.md)" });
