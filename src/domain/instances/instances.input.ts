import { z } from 'zod';
import { urlText } from '../messages/messages.input.js';
import type { KnownEngine } from '../network/credentials.js';
import { SESSION_EVENTS, V1_EVENTS } from '../events/catalogue.js';
import { historySyncInput } from '../conversations/history-sync.js';
import { mediaPolicyInput } from '../media/keep-policy.js';
import { webhookFormatInput } from './webhook-format.js';

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
const integrationField = (known: readonly string[]) =>
  z
    .string({ error: 'must be a string' })
    .nullish()
    .meta({ description: 'the chat network engine, one of those the gateway offers (ENGINES); the first offered by default', enum: [...known, null] });

/** A body as parsed: its own fields, and any engine's credentials as that engine's schema gave them (opaque here). */
type WithCredentials<T> = T & { readonly [field: string]: unknown };

function withCredentials<S extends z.ZodObject>(schema: S, fields: Record<string, z.ZodType>) {
  return schema.extend(fields) as unknown as z.ZodType<WithCredentials<z.output<S>>>;
}

/** The fields every instance body has; each engine's credentials field follows them. */
const BASE_FIELDS = ['name', 'integration', 'description', 'webhookUrl', 'webhookEvents', 'webhookFormat', 'historySync', 'media'];

/**
 * The create and update bodies of both variants, for the engines the gateway knows: each credentials
 * engine adds its field, validated by its own schema (required for its instances; the service refuses
 * it for any other). The service parses with these, and the OpenAPI document describes them.
 */
export function instanceInputs(known: readonly KnownEngine[]) {
  const lines = known.flatMap((engine) => (engine.credentials ? [engine.credentials] : []));
  const fields = lines.map((line) => line.field);
  const clash = fields.find((field, index) => BASE_FIELDS.includes(field) || fields.indexOf(field) !== index);
  if (clash !== undefined) throw new Error(`two fields of an instance body would be named ${clash}: an engine's credentials field must be a name of its own`);
  const creating: Record<string, z.ZodType> = Object.fromEntries(lines.map((line) => [line.field, line.create.nullish()]));
  const replacing: Record<string, z.ZodType> = Object.fromEntries(lines.map((line) => [line.field, line.replace.nullish()]));
  const integration = integrationField(known.map((engine) => engine.integration));

  const historySync = historySyncInput.nullish();
  const media = mediaPolicyInput.nullish();
  const createV1 = z.object({ name: name(100), integration, description, webhookUrl: url.nullish(), webhookEvents: events(V1_EVENTS).nullish(), webhookFormat: webhookFormatInput.nullish(), historySync, media });
  const createSession = z.object({ name: name(50), webhookUrl: url.nullish(), integration, historySync, media });
  return {
    createV1: withCredentials(createV1, creating),
    updateV1: withCredentials(createV1.omit({ integration: true }).partial(), replacing),
    createSession: withCredentials(createSession, creating),
    updateSession: withCredentials(createSession.omit({ integration: true }).partial(), replacing),
  };
}

export type InstanceInputs = ReturnType<typeof instanceInputs>;

const setWebhookInputs = {
  v1: z.object({ url, events: events(V1_EVENTS).nullish(), format: webhookFormatInput.optional() }),
  session: z.object({ url, events: events(SESSION_EVENTS).nullish(), format: webhookFormatInput.optional() }),
};

/** POST …/webhook: the events are checked against the instance's own variant's list. */
export const setWebhookInput = (variant: 'v1' | 'session') => setWebhookInputs[variant];

export { SESSION_EVENTS, V1_EVENTS };
