import { z } from 'zod';
import { MEDIA_TYPES, MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from './message-values.js';
import { chatIdInput } from '../conversations/conversations.input.js';
import { phoneDigitsOf } from '../phone.js';

export const PHONE_DIGITS = /^[1-9][0-9]{6,14}$/;
export const MAX_TEXT_LENGTH = 4096;

const DIGITS_RULE = 'must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses)';

/**
 * A recipient as the spec's send takes it: digits only. The answer to anything else says how to
 * write it, with the caller's own number rewritten when it is one written another way.
 */
export const phoneNumber = z.string({ error: 'is required and must be a string of digits' }).regex(PHONE_DIGITS, {
  error: (issue) => {
    const digits = typeof issue.input === 'string' ? phoneDigitsOf(issue.input.trim()) : null;
    return digits ? `${DIGITS_RULE}: write ${JSON.stringify(issue.input)} as "${digits}"` : `${DIGITS_RULE}, e.g. 5511999990001`;
  },
});

export const messageText = z
  .string({ error: 'is required and must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);

/** Largest `components` of a template, as JSON text. */
const MAX_TEMPLATE_COMPONENTS_BYTES = 16 * 1024;

/**
 * A pre-approved template (CHAT-CLOUD): the only kind of message the network delivers outside the
 * 24-hour window. `components` (header, body and button parameters) go to the API as given.
 */
export const templateInput = z
  .object(
    {
      name: z.string({ error: 'is required' }).regex(/^[a-z0-9_]{1,512}$/, "must be the template's name: lowercase letters, digits and underscores"),
      language: z.string({ error: 'is required' }).regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a language code such as en or en_US'),
      components: z
        .array(z.record(z.string(), z.unknown(), { error: 'must be an object' }), { error: 'must be an array of objects' })
        .max(20, 'must have at most 20 components')
        .refine((list) => JSON.stringify(list).length <= MAX_TEMPLATE_COMPONENTS_BYTES, `must be at most ${MAX_TEMPLATE_COMPONENTS_BYTES} bytes as JSON`)
        .optional(),
    },
    { error: 'must be an object {name, language, components?}' },
  )
  .meta({ description: 'CHAT-CLOUD instances only: a pre-approved template, in place of the text (never given the [TEST] prefix)' });

export type TemplateInput = z.output<typeof templateInput>;

/** Text or a template, exactly one: `field` is the text's name in the endpoint's body. */
function textOrTemplate<T extends z.ZodObject>(schema: T, field: string) {
  const has = (value: unknown, key: string) => (value as Record<string, unknown>)[key] !== undefined;
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  return schema
    .meta({ oneOf: [{ required: [field] }, { required: ['template'] }] })
    .refine((data) => !(has(data, field) && has(data, 'template')), { path: ['template'], message: `give either ${field} or template, not both` })
    .refine((data) => has(data, field) || has(data, 'template'), {
      path: [field],
      message: 'is required',
      // Reported beside the other fields' problems, as when the text was a required field of its own.
      when: (payload) => isObject(payload.value),
    });
}

export const sendMessageInput = textOrTemplate(
  z.object({
    to: phoneNumber,
    text: messageText.optional(),
    template: templateInput.optional(),
    instanceId: z
      .string({ error: 'must be an instance id' })
      .uuid('must be an instance id')
      .optional()
      .meta({ description: 'the instance to send through (docs/messaging.md); when omitted, the least recently used connected instance' }),
  }),
  'text',
);

export type SendMessageInput = z.output<typeof sendMessageInput>;

/** Query strings arrive as text: "2" is a page, "two", "" or a repeated parameter is not. */
const pageNumber = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .or(z.number().int('must be a whole number'))
    .pipe(z.number().min(1, 'must be at least 1').max(max, `must be at most ${max}`));

const instantRule = 'must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z';
const instant = z.iso.datetime({ offset: true, message: instantRule }).transform((at) => new Date(at));

/** GET /v1/messages/list: a page, and filters that must all match; any other parameter is refused by name. */
export const listMessagesInput = z.strictObject({
  page: pageNumber(1_000_000).default(1),
  limit: pageNumber(100).default(10),
  instanceId: z.uuid({ message: 'must be an instance id' }).optional(),
  chatId: chatIdInput.shape.chatId.transform((id) => id.replace(/^\+/, '')).optional(),
  direction: z.enum(MESSAGE_DIRECTIONS, { message: `must be one of ${MESSAGE_DIRECTIONS.join(', ')}` }).optional(),
  status: z.enum(MESSAGE_STATUSES, { message: `must be one of ${MESSAGE_STATUSES.join(', ')}` }).optional(),
  since: instant.optional().meta({ description: 'only messages created at or after this time' }),
  until: instant.optional().meta({ description: 'only messages created before this time' }),
});

export type ListMessagesInput = z.output<typeof listMessagesInput>;

/** Text of a URL the gateway will call (checked further by the URL policy). */
export const urlText = z
  .string({ error: 'must be a URL' })
  .max(2048, 'must be at most 2048 characters')
  // The document states what the URL policy checks (an absolute https URL without credentials; http only with WEBHOOK_ALLOW_INSECURE).
  .meta({ format: 'uri', pattern: '^https?://[^\\s/@]+(/\\S*)?$', description: 'an absolute https URL without credentials (http only when the gateway runs with WEBHOOK_ALLOW_INSECURE), not on a private address' });

/** POST /chat/instances/<id>/send-text. */
export const sendTextInput = textOrTemplate(z.object({ to: phoneNumber, message: messageText.optional(), template: templateInput.optional() }), 'message');

/** POST /chat/instances/<id>/send-media. */
export const sendMediaInput = z.object({
  to: phoneNumber,
  mediaUrl: urlText,
  mediaType: z.enum(MEDIA_TYPES, { error: `must be one of ${MEDIA_TYPES.join(', ')}` }),
  caption: z.string().max(1024, 'must be at most 1024 characters').nullish(),
});
