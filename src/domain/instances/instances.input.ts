import { z } from 'zod';
import { urlText } from '../messages/messages.input.js';
import { SESSION_EVENTS, V1_EVENTS } from './events.js';

const name = (max: number) =>
  z
    .string({ error: 'is required' })
    // Counted after trimming: the pattern says so for the document (at least 3 characters between the first and last non-space).
    .meta({ pattern: '^\\s*\\S[\\s\\S]+\\S\\s*$', description: `${3} to ${max} characters, not counting spaces around them` })
    .trim()
    .min(3, 'must be 3 to ' + max + ' characters')
    .max(max, 'must be 3 to ' + max + ' characters');
const description = z.string().max(500, 'must be at most 500 characters').nullish();
const url = urlText;
/** A list of event names of one variant (spec 6.1); unknown names are reported together, with the allowed ones. */
const events = (known: readonly string[]) =>
  z
    .array(z.string().meta({ enum: [...known] }), { error: 'must be an array of event names' })
    .max(known.length * 2, `must list at most ${known.length * 2} event names`)
    .superRefine((list, ctx) => {
      const unknown = [...new Set(list.filter((e) => !known.includes(e)))];
      if (unknown.length) {
        ctx.addIssue({ code: 'custom', message: `unknown event name(s) ${unknown.join(', ')}; allowed: ${known.join(', ')}` });
      }
    })
    .transform((list) => [...new Set(list)]);

/** The engine to run on; which ones are offered is the deployment's (checked by the service). */
const integration = z
  .string({ error: 'must be a string' })
  .nullish()
  .meta({ description: 'the chat network engine, one of those the gateway offers (ENGINES); the first offered by default', enum: ['CHAT-SANDBOX', 'CHAT-BAILEYS', 'CHAT-CLOUD', null] });

const apiId = z.string({ error: 'is required' }).regex(/^\d{1,32}$/, "must be the API's numeric id (digits only)");
const accessToken = z.string({ error: 'is required' }).min(1, 'must not be empty').max(4096, 'must be at most 4096 characters');
const appSecret = z.string({ error: 'is required' }).min(1, 'must not be empty').max(512, 'must be at most 512 characters');

/** CHAT-CLOUD's credentials: write-only, sealed at rest, checked with the API at once. */
export const cloudCredentialsInput = z
  .object({ phoneNumberId: apiId, accessToken, appSecret, businessAccountId: apiId.nullish() }, { error: 'must be an object {phoneNumberId, accessToken, appSecret, businessAccountId?}' })
  .meta({ description: 'CHAT-CLOUD only (and required for it): the API credentials of the number; never shown again' });

/** PUT replaces the token (and, if given, the app secret) of a CHAT-CLOUD instance. */
export const cloudTokenInput = z
  .object({ accessToken, appSecret: appSecret.nullish() }, { error: 'must be an object {accessToken, appSecret?}' })
  .meta({ description: 'CHAT-CLOUD only: a new access token (and app secret); the instance is checked with the API again' });

export const createV1Input = z.object({
  name: name(100),
  integration,
  description,
  webhookUrl: url.nullish(),
  webhookEvents: events(V1_EVENTS).nullish(),
  cloud: cloudCredentialsInput.nullish(),
});
export const updateV1Input = createV1Input.omit({ integration: true, cloud: true }).partial().extend({ cloud: cloudTokenInput.nullish() });

export const createSessionInput = z.object({ name: name(50), webhookUrl: url.nullish(), integration, cloud: cloudCredentialsInput.nullish() });
export const updateSessionInput = createSessionInput.omit({ integration: true, cloud: true }).partial().extend({ cloud: cloudTokenInput.nullish() });

const setWebhookInputs = {
  v1: z.object({ url, events: events(V1_EVENTS).nullish() }),
  session: z.object({ url, events: events(SESSION_EVENTS).nullish() }),
};

/** POST …/webhook: the events are checked against the instance's own variant's list. */
export const setWebhookInput = (variant: 'v1' | 'session') => setWebhookInputs[variant];

export { SESSION_EVENTS, V1_EVENTS };
