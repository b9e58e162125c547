import { z } from 'zod';
import { backfillInput, chatListQuery, chatMessagesQuery, contactListQuery, muteInput } from '../../domain/conversations/conversations.input.js';
import type { Credential, Operation } from '../../http/operation.js';
import * as s from './schemas.js';

const instant = z.iso.datetime({ offset: true });

export const ChatMessage = s.Message.extend({
  chatId: z.string().meta({ description: 'the chat it belongs to: phone digits, <lid>@lid or a group id' }),
  history: z.boolean().meta({ description: "taken from the phone's history sync (never announced as messages.upsert)" }),
}).meta({ id: 'ChatMessage', description: 'a message as GET /v1/messages/status shows it, with its chat and whether it is history' });

export const Chat = z
  .object({
    id: z.string().meta({ description: "the other side's phone digits, <lid>@lid while only a LID is known, or the group id" }),
    instanceId: z.uuid(),
    kind: z.enum(['direct', 'group']),
    name: z.string().meta({ description: 'the saved contact name, else the push name, else the group subject, else the digits' }),
    lastMessage: ChatMessage.nullable().meta({ description: 'its newest message; null once none is left' }),
    unreadCount: z.number().int().min(0),
    archived: z.boolean(),
    pinned: z.boolean(),
    mutedUntil: z.string().nullable().meta({ description: 'an ISO 8601 instant, "forever", or null when not muted' }),
    updatedAt: instant,
  })
  .meta({ id: 'Chat' });

export const Contact = z
  .object({
    phone: z.string().nullable().meta({ description: 'phone digits; null while only the LID is known' }),
    lid: z.string().nullable(),
    name: z.string().nullable().meta({ description: 'the name saved on the phone' }),
    pushName: z.string().nullable().meta({ description: 'the name the person gave themselves' }),
    onNetwork: z.boolean().nullable(),
    business: z.boolean(),
    about: z.string().nullable(),
    blocked: z.boolean(),
    picture: z.object({ url: z.string(), expiresAt: instant }).nullable(),
  })
  .meta({ id: 'Contact' });

/** A page of a list: its items, and the cursor of the next page (null on the last). */
const page = <T extends z.ZodType>(item: T) =>
  z.object({ success: z.literal(true), data: z.array(item), next: z.string().nullable().meta({ description: 'pass as `cursor` (`before` for messages) for the next page; null on the last' }) });

/** An instance's chats and contacts (docs/conversations.md): the same under /v1 (key) and without it (cookie). */
export function conversationOperations(prefix: string, auth: Credential[]): Operation[] {
  const errors = [400, 403, 404];
  const acts = [...errors, 409, 502];
  const chats = `${prefix}/:instanceId/chats`;
  const chat = `${chats}/:chatId`;
  const contacts = `${prefix}/:instanceId/contacts`;
  const tag = 'Conversations';
  const theChat = { status: 200, schema: s.okEnvelope(Chat), description: 'the chat' } as const;
  const theContact = { status: 200, schema: s.okEnvelope(Contact), description: 'the contact' } as const;
  const told = 'kept here at once, and told to the phone when the engine can and the instance is connected';
  const state = (path: string, summary: string): Operation => ({ method: 'post', path: `${chat}/${path}`, tag, summary: `${summary}; ${told}`, auth, success: theChat, errors: acts });
  return [
    { method: 'get', path: chats, tag, summary: 'The chats, pinned first, then newest activity first', auth, query: chatListQuery, success: { status: 200, schema: page(Chat), description: 'a page of chats' }, errors },
    { method: 'get', path: chat, tag, summary: 'One chat (an unknown one is a 400 naming chatId)', auth, success: theChat, errors },
    { method: 'get', path: `${chat}/messages`, tag, summary: "The chat's messages, newest first, history included", auth, query: chatMessagesQuery, success: { status: 200, schema: page(ChatMessage), description: 'a page of messages' }, errors },
    state('read', 'Mark the chat read: its unread count becomes 0 and its received messages read (read receipts go to the network)'),
    state('unread', 'Mark the chat unread'),
    state('archive', 'Archive the chat'),
    state('unarchive', 'Take the chat out of the archive'),
    state('pin', 'Pin the chat'),
    state('unpin', 'Unpin the chat'),
    { method: 'post', path: `${chat}/mute`, tag, summary: `Mute the chat until a time in the future, or "forever"; ${told}`, auth, body: muteInput, success: theChat, errors: acts },
    state('unmute', 'Unmute the chat'),
    { method: 'delete', path: chat, tag, summary: 'Forget the chat and its messages here (the phone keeps its own)', auth, success: { status: 200, schema: s.messageEnvelope, description: 'forgotten' }, errors: acts },
    { method: 'post', path: `${chat}/history`, tag, summary: "Ask the phone for up to `count` messages older than the chat's oldest; they arrive as history (history.sync)", auth, body: backfillInput, success: { status: 202, schema: s.messageEnvelope, description: 'asked' }, errors: [...acts, 422] },
    { method: 'get', path: contacts, tag, summary: 'The contacts the gateway knows of', auth, query: contactListQuery, success: { status: 200, schema: page(Contact), description: 'a page of contacts' }, errors },
    { method: 'get', path: `${contacts}/:phone`, tag, summary: 'One contact, its profile fetched from the network when stale (an unknown one is a 400 naming phone)', auth, success: theContact, errors: acts },
    { method: 'post', path: `${contacts}/:phone/block`, tag, summary: `Block the phone; ${told}`, auth, success: theContact, errors: acts },
    { method: 'post', path: `${contacts}/:phone/unblock`, tag, summary: `Unblock the phone; ${told}`, auth, success: theContact, errors: acts },
  ];
}
