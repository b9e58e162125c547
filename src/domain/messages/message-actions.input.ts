import { z } from 'zod';
import { PRESENCE_STATES } from '../network/engine.port.js';
import { messageText, PHONE_DIGITS } from './messages.input.js';
import { notAnObject } from './send-kinds.input.js';

/** PATCH …/messages/<id>: the new text. */
export const editInput = z.object({ text: messageText }, notAnObject('must be a JSON object {text}')).strict();

/** POST …/chats/<chat>/presence. */
export const presenceInput = z
  .object({ state: z.enum(PRESENCE_STATES, { error: `must be one of ${PRESENCE_STATES.join(', ')}` }) }, notAnObject('must be a JSON object {state}'))
  .strict();

export const MAX_NUMBER_CHECKS = 50;

/** POST …/contacts/check: up to 50 phones, each once. */
export const numberCheckInput = z
  .object(
    {
      phones: z
        .array(z.string({ error: 'must be phone digits' }).regex(PHONE_DIGITS, 'must be phone digits with the country code first (7-15 digits)'), {
          error: 'must be a list of phone digits',
        })
        .min(1, 'must name at least 1 phone')
        .max(MAX_NUMBER_CHECKS, `must name at most ${MAX_NUMBER_CHECKS} phones`),
    },
    notAnObject('must be a JSON object {phones}'),
  )
  .strict();
