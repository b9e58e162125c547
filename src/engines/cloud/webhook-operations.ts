import { z } from 'zod';
import { type HttpSurface, type Operation, okEnvelope } from '../../http/operation.js';

const CLOUD_WEBHOOK_PATH = '/webhooks/cloud';

const CloudVerification = z.object({
  'hub.mode': z.string().meta({ description: 'subscribe' }),
  'hub.challenge': z.string().meta({ description: 'answered back as text' }),
  'hub.verify_token': z.string().meta({ description: 'must be CLOUD_VERIFY_TOKEN' }),
});

const CloudWebhookBody = z
  .object({
    object: z.string().meta({ description: 'whatsapp_business_account' }),
    entry: z.array(z.record(z.string(), z.unknown())).meta({ description: 'every entry, change, message and status is processed' }),
  })
  .meta({ id: 'CloudWebhookBody', description: "the network's envelope (at most 4 MiB), signed over its exact bytes" });

const CloudWebhookAnswer = z.object({
  messages: z.number().int().meta({ description: 'inbound messages processed (each stored once)' }),
  statuses: z.number().int().meta({ description: 'statuses processed' }),
});

const tag = 'Business API network';

/** The webhook's two operations: the subscription's verification, then what the network sends. */
export const webhookOperations = {
  verify: { method: 'get', path: CLOUD_WEBHOOK_PATH, tag, summary: "The network's verification of the webhook subscription: hub.challenge back as text when hub.verify_token is CLOUD_VERIFY_TOKEN", auth: [], query: CloudVerification, success: { status: 200, description: 'the challenge', contentType: 'text/plain' }, errors: [403, 429] },
  receive: { method: 'post', path: CLOUD_WEBHOOK_PATH, tag, summary: "The network's messages and statuses for CHAT-CLOUD instances, signed (X-Hub-Signature-256) with the app secret of the number they name; 200 once stored", auth: [], body: CloudWebhookBody, success: { status: 200, schema: okEnvelope(CloudWebhookAnswer), description: 'stored' }, errors: [400, 401, 403, 404, 413, 429] },
} satisfies Record<string, Operation>;

/** How the business API's webhook appears in the OpenAPI document. */
export const webhookSurface: HttpSurface = {
  tags: [{ name: tag, description: "The network's callbacks for CHAT-CLOUD instances (ENGINES with cloud): signed by the network, not called with an API key." }],
  operations: Object.values(webhookOperations),
};
