import { builder } from '../builder.js';

/**
 * Identity for client caches. Ids are the plain UUIDs REST and webhooks show (a chat's or contact's
 * joins its instance's and its own, conversation-ids.ts): a client asks `node(id)` with an id from a
 * webhook or a REST answer, and caches key entities by `__typename` + `id`, unique either way.
 */

const NODE_TYPE = Symbol('GraphQL type of a node');
type Tagged = { [NODE_TYPE]?: string };

export const NodeInterface = builder.interfaceRef<{ id: string }>('Node').implement({
  description: 'Anything with an id: an instance, a message, an API key, a webhook delivery, a chat, a contact. Fetch it again with `node(id)`.',
  resolveType: (value) => (value as Tagged)[NODE_TYPE] ?? null,
  fields: (t) => ({
    id: t.exposeID('id', { description: 'A UUID, the same id REST answers and webhooks show; a chat\'s is chat:<instanceId>:<chatId> and a contact\'s contact:<instanceId>:<contactId>.' }),
  }),
});

/** Marks a row found by `node(id)` with its GraphQL type. */
export function asNode<T extends object>(type: string, row: T | null): T | null {
  if (row) (row as Tagged)[NODE_TYPE] = type;
  return row;
}
