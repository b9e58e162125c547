import type { ChatRecord, ContactRecord } from '../domain/conversations/conversations.ports.js';
import { isUuid } from '../infra/db/prisma-errors.js';
import { asNode } from './types/nodes.js';

/**
 * Chats and contacts are keyed by their instance and their own id, so their Node ids hold both
 * (docs/graphql.md "Conversations"): `chat:<instanceId>:<chatId>`, `contact:<instanceId>:<contactId>`.
 * No chat or contact id holds a colon, and no UUID of the other entities starts with these words.
 */

export interface ChatView {
  id: string;
  instanceId: string;
  chat: ChatRecord;
}

export interface ContactView {
  id: string;
  instanceId: string;
  contact: ContactRecord;
}

export const chatNodeId = (instanceId: string, chatId: string) => `chat:${instanceId}:${chatId}`;
export const contactNodeId = (instanceId: string, contactId: string) => `contact:${instanceId}:${contactId}`;

export const chatView = (chat: ChatRecord): ChatView => asNode('Chat', { id: chatNodeId(chat.instanceId, chat.id), instanceId: chat.instanceId, chat })!;
export const contactView = (contact: ContactRecord): ContactView =>
  asNode('Contact', { id: contactNodeId(contact.instanceId, contact.id), instanceId: contact.instanceId, contact })!;

/** The entity, instance and own id a chat or contact Node id names; null for any other id. */
export function parseConversationId(id: string): { type: 'chat' | 'contact'; instanceId: string; id: string } | null {
  const match = /^(chat|contact):([^:]+):([^:]+)$/.exec(id);
  if (!match || !isUuid(match[2]!)) return null;
  return { type: match[1] as 'chat' | 'contact', instanceId: match[2]!, id: match[3]! };
}
