import { MUTED_FOREVER, type ChatRecord, type ContactRecord, type HistoryProgress } from '../conversations/conversations.ports.js';
import type { CatalogueEvent, ChatData, ContactData } from './catalogue.js';
import { upsertEvent } from './message-payloads.js';

export function chatData(chat: ChatRecord, now = new Date()): ChatData {
  const last = chat.lastMessage;
  const muted = chat.mutedUntil && chat.mutedUntil > now ? chat.mutedUntil : null;
  return {
    id: chat.id,
    instanceId: chat.instanceId,
    kind: chat.kind,
    name: chat.name,
    lastMessage: last ? { ...upsertEvent(last).data, status: last.status, history: last.history } : null,
    unreadCount: chat.unreadCount,
    archived: chat.archived,
    pinned: chat.pinned,
    mutedUntil: muted === null ? null : muted.getTime() >= MUTED_FOREVER.getTime() ? 'forever' : muted.toISOString(),
    updatedAt: chat.updatedAt.toISOString(),
  };
}

export function contactData(contact: ContactRecord): ContactData {
  return {
    phone: contact.phone,
    lid: contact.lid,
    name: contact.name,
    pushName: contact.pushName,
    onNetwork: contact.onNetwork,
    business: contact.business,
    about: contact.about,
    blocked: contact.blocked,
    picture: contact.pictureUrl && contact.profileExpiresAt ? { url: contact.pictureUrl, expiresAt: contact.profileExpiresAt.toISOString() } : null,
  };
}

export const chatUpsertEvent = (chat: ChatRecord): CatalogueEvent<'chats.upsert'> => ({ event: 'chats.upsert', data: chatData(chat) });
export const chatUpdateEvent = (chat: ChatRecord): CatalogueEvent<'chats.update'> => ({ event: 'chats.update', data: chatData(chat) });
export const chatDeleteEvent = (instanceId: string, chatId: string): CatalogueEvent<'chats.delete'> => ({ event: 'chats.delete', data: { id: chatId, instanceId } });
export const contactsUpsertEvent = (contacts: ContactRecord[]): CatalogueEvent<'contacts.upsert'> => ({ event: 'contacts.upsert', data: { contacts: contacts.map(contactData) } });
/** contacts.update as the network's own contact changes show it: who, and what changed. */
export const contactsUpdateEvent = (contacts: ContactRecord[]): CatalogueEvent<'contacts.update'> => ({
  event: 'contacts.update',
  data: { contacts: contacts.map((c) => ({ phone: c.phone, ...(c.lid ? { lid: c.lid } : {}), ...(c.pushName ? { pushName: c.pushName } : {}), blocked: c.blocked })) },
});
export const historySyncEvent = (progress: HistoryProgress): CatalogueEvent<'history.sync'> => ({ event: 'history.sync', data: { ...progress } });
