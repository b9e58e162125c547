import type { Router } from '@koa/router';
import type { ChatRecord, ContactRecord } from '../../../domain/conversations/conversations.ports.js';
import { Invalid } from '../../../domain/errors.js';
import { NotOfInstance } from '../../../domain/conversations/not-of-instance.js';
import type { AppState } from '../../../http/context.js';
import { chatOf, jidOf, recipientOf } from '../numbers.js';
import { type EvolutionDeps, operation } from '../operation.js';
import { presentStored } from '../presenters.js';

type Body = Record<string, unknown>;
const objectOf = (value: unknown): Body => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {});

/** The chat an Evolution chat body names: `chat`, else `lastMessage.key.remoteJid`. */
function chatNamed(body: Body): string {
  if (body.chat !== undefined) return chatOf(body.chat, 'chat');
  return chatOf(objectOf(objectOf(body.lastMessage).key).remoteJid, 'lastMessage.key.remoteJid');
}

const presentChat = (chat: ChatRecord) => ({
  id: chat.id,
  remoteJid: jidOf(chat.id),
  name: chat.name,
  pushName: chat.name,
  profilePicUrl: null,
  unreadCount: chat.unreadCount,
  archived: chat.archived,
  pinned: chat.pinned,
  createdAt: chat.createdAt.toISOString(),
  updatedAt: chat.updatedAt.toISOString(),
  lastMessage: chat.lastMessage ? presentStored(chat.lastMessage) : null,
});

const presentContact = (contact: ContactRecord) => ({
  id: contact.id,
  remoteJid: jidOf(contact.id),
  pushName: contact.pushName ?? contact.name,
  profilePicUrl: contact.pictureUrl,
  isBlocked: contact.blocked,
  updatedAt: contact.updatedAt.toISOString(),
  instanceId: contact.instanceId,
});

const limitOf = (body: Body) => (typeof body.offset === 'number' ? { limit: String(Math.min(100, Math.max(1, body.offset))) } : {});

/** /chat/*: numbers, reads, chat states, actions on messages, contacts and the stored conversations (docs/evolution.md). */
export function chatRoutes(router: Router<AppState>, deps: EvolutionDeps) {
  const { messageActions, conversations, mediaDownloads } = deps.services;

  operation(router, deps, 'post', '/chat/whatsappNumbers', { named: true, names: { phones: 'numbers' } }, async ({ actor, instance, body }) => {
    if (!Array.isArray(body.numbers)) throw Invalid.at('numbers', 'must be a list of phone numbers');
    const phones = body.numbers.map((number: unknown, index) => recipientOf(number, `numbers.${index}`));
    const checks = await messageActions.checkNumbers(actor, instance.id, { phones });
    return { body: checks.map((check) => ({ exists: check.exists, jid: jidOf(check.phone), number: check.phone, ...(check.lid ? { lid: `${check.lid}@lid` } : {}) })) };
  });

  operation(router, deps, 'post', '/chat/markMessageAsRead', { named: true }, async ({ actor, instance, body }) => {
    if (!Array.isArray(body.readMessages) || body.readMessages.length === 0) throw Invalid.at('readMessages', 'must be a list of message keys {remoteJid, fromMe, id}');
    for (const [index, key] of body.readMessages.entries()) {
      const id = objectOf(key).id;
      if (typeof id !== 'string') throw Invalid.at(`readMessages.${index}.id`, 'is required');
    }
    for (const key of body.readMessages as Body[]) await messageActions.markRead(actor, instance.id, key.id as string);
    return { status: 201, body: { message: 'Read messages', read: 'success' } };
  });

  operation(router, deps, 'post', '/chat/archiveChat', { named: true, names: { chatId: 'chat' } }, async ({ actor, instance, body }) => {
    if (typeof body.archive !== 'boolean') throw Invalid.at('archive', 'must be true or false');
    const chat = await conversations.act(actor, instance.id, chatNamed(body), body.archive ? 'archive' : 'unarchive');
    return { status: 201, body: { chatId: jidOf(chat.id), archived: chat.archived } };
  });

  operation(router, deps, 'post', '/chat/markChatUnread', { named: true, names: { chatId: 'chat' } }, async ({ actor, instance, body }) => {
    const chat = await conversations.act(actor, instance.id, chatNamed(body), 'unread');
    return { status: 201, body: { chatId: jidOf(chat.id), markedChatUnread: true } };
  });

  operation(router, deps, 'delete', '/chat/deleteMessageForEveryone', { named: true }, async ({ actor, instance, body }) => {
    if (typeof body.id !== 'string') throw Invalid.at('id', 'is required: the message id');
    await messageActions.deleteForEveryone(actor, instance.id, body.id);
    const key = { remoteJid: typeof body.remoteJid === 'string' ? body.remoteJid : null, fromMe: true, id: body.id };
    return { status: 201, body: { key, message: { protocolMessage: { key, type: 'REVOKE' } }, messageType: 'protocolMessage', status: 'PENDING' } };
  });

  operation(router, deps, 'post', '/chat/updateMessage', { named: true }, async ({ actor, instance, body }) => {
    const id = objectOf(body.key).id;
    if (typeof id !== 'string') throw Invalid.at('key.id', 'is required: the message id');
    const edited = await messageActions.edit(actor, instance.id, id, { text: body.text });
    return { status: 201, body: presentStored(edited) };
  });

  operation(router, deps, 'post', '/chat/sendPresence', { named: true, names: { state: 'presence' } }, async ({ actor, instance, body }) => {
    await messageActions.presence(actor, instance.id, recipientOf(body.number), { state: body.presence });
    return { status: 201, body: { presence: body.presence } };
  });

  operation(router, deps, 'post', '/chat/updateBlockStatus', { named: true, names: { phone: 'number' } }, async ({ actor, instance, body }) => {
    if (body.status !== 'block' && body.status !== 'unblock') throw Invalid.at('status', 'must be block or unblock');
    await conversations.block(actor, instance.id, recipientOf(body.number), body.status === 'block');
    return { status: 201, body: { accepted: true } };
  });

  operation(router, deps, 'post', '/chat/fetchProfilePictureUrl', { named: true, names: { phone: 'number' } }, async ({ actor, instance, body }) => {
    const phone = recipientOf(body.number);
    try {
      const contact = await conversations.contact(actor, instance.id, phone);
      return { body: { wuid: jidOf(phone), profilePictureUrl: contact.pictureUrl } };
    } catch (error) {
      // A phone the instance never met has no picture to show, as Evolution answers.
      if (error instanceof NotOfInstance) return { body: { wuid: jidOf(phone), profilePictureUrl: null } };
      throw error;
    }
  });

  operation(router, deps, 'post', '/chat/getBase64FromMediaMessage', { named: true }, async ({ actor, body }) => {
    const id = objectOf(objectOf(body.message).key).id;
    if (typeof id !== 'string') throw Invalid.at('message.key.id', 'is required: the message id');
    const media = await mediaDownloads.open(actor, id);
    const chunks: Buffer[] = [];
    for await (const chunk of media.bytes) chunks.push(Buffer.from(chunk));
    const bytes = Buffer.concat(chunks);
    return { status: 201, body: { mediaType: media.mimetype.split('/')[0], fileName: media.fileName, size: { fileLength: bytes.length }, mimetype: media.mimetype, base64: bytes.toString('base64'), buffer: null } };
  });

  operation(router, deps, 'post', '/chat/findContacts', { named: true }, async ({ actor, instance, body }) => {
    const id = objectOf(body.where).id;
    if (typeof id === 'string') {
      try {
        return { body: [presentContact(await conversations.contact(actor, instance.id, recipientOf(id, 'where.id')))] };
      } catch (error) {
        if (error instanceof NotOfInstance) return { body: [] };
        throw error;
      }
    }
    const page = await conversations.contacts(actor, instance.id, { limit: '100' });
    return { body: page.items.map(presentContact) };
  });

  operation(router, deps, 'post', '/chat/findChats', { named: true }, async ({ actor, instance }) => {
    const page = await conversations.chats(actor, instance.id, { limit: '100' });
    return { body: page.items.map(presentChat) };
  });

  operation(router, deps, 'post', '/chat/findMessages', { named: true, names: { chatId: 'where.key.remoteJid', limit: 'offset' } }, async ({ actor, instance, body }) => {
    const chat = chatOf(objectOf(objectOf(body.where).key).remoteJid, 'where.key.remoteJid');
    const page = await conversations.messages(actor, instance.id, chat, limitOf(body));
    const total = await conversations.messageCount(actor, instance.id, chat);
    const records = page.items.map(presentStored);
    // The newest page only: the gateway pages by cursor, not by number (docs/evolution.md, "Differences").
    return { body: { messages: { total, pages: Math.max(1, Math.ceil(total / Math.max(1, records.length))), currentPage: 1, records } } };
  });
}
