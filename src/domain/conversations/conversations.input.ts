import { z } from 'zod';
import { CHAT_FILTERS } from './conversations.ports.js';

/**
 * What the conversation reads and actions take (docs/conversations.md), for REST queries and GraphQL
 * arguments alike. A query names only these fields: any other is refused by name.
 */

const limit = (fallback: number) => z.coerce.number({ message: 'must be a whole number from 1 to 100' }).int('must be a whole number from 1 to 100').min(1, 'must be a whole number from 1 to 100').max(100, 'must be a whole number from 1 to 100').default(fallback);
const cursor = z.string().min(1, 'must be a cursor from an earlier page').max(512, 'must be a cursor from an earlier page');
const search = z.string().trim().max(100, 'must be at most 100 characters');

export const chatListQuery = z.strictObject({
  cursor: cursor.optional(),
  limit: limit(20),
  filter: z.enum(CHAT_FILTERS, { message: `must be one of ${CHAT_FILTERS.join(', ')}` }).default('all'),
  search: search.optional(),
});

export const chatMessagesQuery = z.strictObject({
  before: cursor.optional(),
  limit: limit(50),
});

export const contactListQuery = z.strictObject({
  cursor: cursor.optional(),
  limit: limit(20),
  search: search.optional(),
});

/** A chat as a path or argument names it: a phone's digits (an optional +), `<lid>@lid` or a group id. */
export const chatIdInput = z.strictObject({
  chatId: z
    .string()
    .max(128, 'must be a chat id: phone digits, <lid>@lid or a group id')
    .regex(/^(\+?[1-9][0-9]{5,17}|[0-9]{5,20}@lid|[0-9]{5,20}(-[0-9]{5,20})?@g\.us)$/, 'must be a chat id: phone digits, <lid>@lid or a group id'),
});

export const muteInput = z.strictObject({
  until: z.union([z.literal('forever'), z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time or "forever"' })], {
    message: 'must be an ISO 8601 time or "forever"',
  }),
});

export const backfillInput = z.strictObject({
  count: z.number({ message: 'must be a whole number from 1 to 500' }).int('must be a whole number from 1 to 500').min(1, 'must be a whole number from 1 to 500').max(500, 'must be a whole number from 1 to 500').default(50),
});

export const contactIdInput = z.strictObject({
  phone: z.string().regex(/^\+?[1-9][0-9]{5,17}$/, 'must be a phone number: digits with the country code'),
});
