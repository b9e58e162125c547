import { z } from 'zod';
import { urlText } from '../messages/messages.input.js';
import { SESSION_EVENTS, V1_EVENTS } from './events.js';

const name = (max: number) =>
  z.string({ error: 'is required' }).trim().min(3, 'must be 3 to ' + max + ' characters').max(max, 'must be 3 to ' + max + ' characters');
const description = z.string().max(500, 'must be at most 500 characters').nullish();
const url = urlText;
/** A list of event names of one variant (spec 6.1); unknown names are reported together, with the allowed ones. */
const events = (known: readonly string[]) =>
  z
    .array(z.string(), { error: 'must be an array of event names' })
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
  .meta({ description: 'the chat network engine, one of those the gateway offers (ENGINES), e.g. CHAT-SANDBOX or CHAT-BAILEYS; the first offered by default' });

export const createV1Input = z.object({
  name: name(100),
  integration,
  description,
  webhookUrl: url.nullish(),
  webhookEvents: events(V1_EVENTS).nullish(),
});
export const updateV1Input = createV1Input.omit({ integration: true }).partial();

export const createSessionInput = z.object({ name: name(50), webhookUrl: url.nullish(), integration });
export const updateSessionInput = createSessionInput.omit({ integration: true }).partial();

const setWebhookInputs = {
  v1: z.object({ url, events: events(V1_EVENTS).nullish() }),
  session: z.object({ url, events: events(SESSION_EVENTS).nullish() }),
};

/** POST …/webhook: the events are checked against the instance's own variant's list. */
export const setWebhookInput = (variant: 'v1' | 'session') => setWebhookInputs[variant];

export { SESSION_EVENTS, V1_EVENTS };
