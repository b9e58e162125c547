import { z } from 'zod';
import { MEDIA_TYPES } from './message-values.js';

export const PHONE_DIGITS = /^[1-9][0-9]{6,14}$/;
export const MAX_TEXT_LENGTH = 4096;

export const phoneNumber = z
  .string({ error: 'is required and must be a string of digits' })
  .regex(PHONE_DIGITS, 'must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses)');

export const messageText = z
  .string({ error: 'is required and must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);

export const sendMessageInput = z.object({ to: phoneNumber, text: messageText });

export type SendMessageInput = z.output<typeof sendMessageInput>;

/** Query strings arrive as text: "2" is a page, "two", "" or a repeated parameter is not. */
const pageNumber = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .or(z.number().int('must be a whole number'))
    .pipe(z.number().min(1, 'must be at least 1').max(max, `must be at most ${max}`));

export const listMessagesInput = z.object({
  page: pageNumber(1_000_000).default(1),
  limit: pageNumber(100).default(10),
});

export type ListMessagesInput = z.output<typeof listMessagesInput>;

/** Text of a URL the gateway will call (checked further by the URL policy). */
export const urlText = z.string({ error: 'must be a URL' }).max(2048, 'must be at most 2048 characters');

/** POST /chat/instances/<id>/send-text. */
export const sendTextInput = z.object({ to: phoneNumber, message: messageText });

/** POST /chat/instances/<id>/send-media. */
export const sendMediaInput = z.object({
  to: phoneNumber,
  mediaUrl: urlText,
  mediaType: z.enum(MEDIA_TYPES, { error: `must be one of ${MEDIA_TYPES.join(', ')}` }),
  caption: z.string().max(1024, 'must be at most 1024 characters').nullish(),
});
