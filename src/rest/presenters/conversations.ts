import type { z } from 'zod';
import type * as documented from '../openapi/conversation-operations.js';
import type { ChatRecord, ContactRecord } from '../../domain/conversations/conversations.ports.js';
import type { MessageRecord } from '../../domain/messages/messages.ports.js';
import { chatIdOf } from '../../domain/conversations/chat-id.js';
import { chatData, contactData } from '../../domain/events/conversation-payloads.js';
import { presentMessage } from './messages.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';

/**
 * A message of a chat: the message as GET /v1/messages/status shows it, with the chat it belongs to
 * and whether it came from the phone's history (docs/conversations.md).
 */
export function presentChatMessage(message: MessageRecord, links: MediaLinks): z.output<typeof documented.ChatMessage> {
  return { ...presentMessage(message, links), chatId: message.chatId ?? chatIdOf(message), history: message.history };
}

/** A chat as events show it, its newest message as REST shows a message. */
export function presentChat(chat: ChatRecord, links: MediaLinks): z.output<typeof documented.Chat> {
  return { ...chatData(chat), lastMessage: chat.lastMessage ? presentChatMessage(chat.lastMessage, links) : null };
}

export const presentContact = (contact: ContactRecord): z.output<typeof documented.Contact> => contactData(contact);
