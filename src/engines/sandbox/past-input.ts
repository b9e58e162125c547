import { z } from 'zod';
import { writtenPhone } from '../../domain/phone.js';
import type { PastMessage, PhonePast } from './past.js';

/** A chat of the past: a person's number (digits, + allowed) or a group id. */
const chatId = z
  .string({ error: 'is required' })
  .regex(/^(\+?[1-9]\d{6,14}|\d{6,30}(-\d{1,20})?@g\.us)$/, 'must be a phone number (digits, + allowed) or a group id (<digits>@g.us)')
  .transform((id) => id.replace(/^\+/, ''));
const isGroup = (chat: string) => chat.endsWith('@g.us');

const pastChat = z.object({
  id: chatId,
  name: z.string().min(1).max(100).nullish().meta({ description: "a group's subject; a direct chat's saved name" }),
  unreadCount: z.number().int().min(0).max(10_000).default(0),
  archived: z.boolean().default(false),
  pinned: z.boolean().default(false),
});

const pastMessage = z.object({
  id: z.string({ error: 'is required' }).min(1).max(64).meta({ description: "the past's own name of the message, which replies and reactions use" }),
  chat: chatId,
  fromMe: z.boolean().default(false).meta({ description: 'sent from the phone itself' }),
  from: writtenPhone.nullish().meta({ description: "who wrote it in a group (required there unless fromMe); a direct chat's is the chat" }),
  pushName: z.string().min(1).max(100).nullish(),
  at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 instant' }).meta({ description: 'when it was sent: in the past' }),
  type: z.enum(['text', 'image', 'location', 'reaction']).default('text').meta({ description: "an image shows the network's stock picture" }),
  text: z.string().min(1).max(4096).nullish(),
  caption: z.string().max(1024).nullish(),
  location: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180), name: z.string().max(200).optional() }).nullish(),
  reaction: z.object({ messageId: z.string().min(1).max(64), emoji: z.string().min(1).max(16) }).nullish().meta({ description: 'the message of the past reacted to, by its id' }),
  quotedId: z.string().min(1).max(64).nullish().meta({ description: 'the message of the past this one replies to, by its id' }),
  status: z.enum(['sent', 'delivered', 'read']).nullish().meta({ description: 'of a fromMe message: what the phone last saw of it (default read)' }),
});

/** The body of POST /sandbox/phones/<number>/past (docs/engines.md, "The sandbox's past"). */
export const pastInput = z
  .object({
    chats: z.array(pastChat).max(100).default([]).meta({ description: "the chats' state; a chat a message names and this list does not is added with none" }),
    contacts: z.array(z.object({ phone: writtenPhone, name: z.string().min(1).max(100).nullish(), pushName: z.string().min(1).max(100).nullish() })).max(500).default([]).meta({ description: "the phone's address book" }),
    messages: z.array(pastMessage).max(1000).default([]),
  })
  .superRefine((past, ctx) => {
    const ids = new Set<string>();
    const now = Date.now();
    past.messages.forEach((message, index) => {
      const at = (field: string, why: string) => ctx.addIssue({ code: 'custom', path: ['messages', index, field], message: why });
      if (ids.has(message.id)) at('id', 'names an earlier message of the past too');
      ids.add(message.id);
      if (Date.parse(message.at) > now) at('at', 'must not be in the future');
      if (message.type === 'text' && !message.text) at('text', 'is required for a text');
      if (message.type === 'location' && !message.location) at('location', 'is required for a location');
      if (message.type === 'reaction' && !message.reaction) at('reaction', 'is required for a reaction');
      if (message.type !== 'reaction' && message.reaction) at('reaction', 'is only for type reaction');
      if (isGroup(message.chat) && !message.fromMe && !message.from) at('from', 'is required for a group message the phone did not send');
    });
    past.messages.forEach((message, index) => {
      if (message.reaction && !ids.has(message.reaction.messageId)) ctx.addIssue({ code: 'custom', path: ['messages', index, 'reaction', 'messageId'], message: 'is no message of this past' });
      if (message.quotedId && !ids.has(message.quotedId)) ctx.addIssue({ code: 'custom', path: ['messages', index, 'quotedId'], message: 'is no message of this past' });
    });
    const chats = past.chats.map((chat) => chat.id);
    const twice = chats.findIndex((id, index) => chats.indexOf(id) !== index);
    if (twice >= 0) ctx.addIssue({ code: 'custom', path: ['chats', twice, 'id'], message: 'names an earlier chat too' });
  });

/** The past as the network keeps it: every chat a message names listed, every field present. */
export function pastOf(input: z.output<typeof pastInput>): PhonePast {
  const chats = input.chats.map((chat) => ({ id: chat.id, name: chat.name ?? null, unreadCount: chat.unreadCount, archived: chat.archived, pinned: chat.pinned }));
  for (const message of input.messages) {
    if (!chats.some((chat) => chat.id === message.chat)) chats.push({ id: message.chat, name: null, unreadCount: 0, archived: false, pinned: false });
  }
  const messages: PastMessage[] = input.messages.map((message) => ({
    id: message.id,
    chat: message.chat,
    fromMe: message.fromMe,
    from: message.fromMe ? null : (message.from ?? (isGroup(message.chat) ? null : message.chat)),
    pushName: message.fromMe ? null : (message.pushName ?? null),
    at: new Date(message.at).toISOString(),
    type: message.type,
    text: message.text ?? null,
    caption: message.caption ?? null,
    location: message.location ?? null,
    reaction: message.reaction ?? null,
    quotedId: message.quotedId ?? null,
    status: message.fromMe ? (message.status ?? 'read') : null,
  }));
  return { chats, contacts: input.contacts.map((contact) => ({ phone: contact.phone, name: contact.name ?? null, pushName: contact.pushName ?? null })), messages };
}
