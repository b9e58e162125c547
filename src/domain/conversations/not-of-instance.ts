import { Invalid } from '../errors.js';

/**
 * A well-formed chat or contact the instance does not have: 400 naming the field, as bad input is
 * (docs/conversations.md); a lookup by id (GraphQL) reads it as not found.
 */
export class NotOfInstance extends Invalid {
  constructor(field: 'chatId' | 'phone', what: 'chat' | 'contact') {
    const refusal = Invalid.at(field, `is no ${what} of this instance`);
    super(refusal.message, refusal.problems);
  }
}
