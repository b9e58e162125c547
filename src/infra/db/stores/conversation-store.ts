import type { ConversationStore } from '../../../domain/conversations/conversations.ports.js';

/** The read model of conversations (docs/conversations.md). */
export function createConversationStore(): ConversationStore {
  const todo = () => {
    throw new Error('conversation store: not yet written');
  };
  return new Proxy({}, { get: () => todo }) as ConversationStore;
}
