import type { MessageRecord, OutboxEventInput } from '../messages/messages.ports.js';
import type { ContactInfo, ContactProfile, HistoryBatch } from '../network/engine-history.js';

/** Muted for good is stored as this moment and shown as "forever". */
export const MUTED_FOREVER = new Date('9999-12-31T00:00:00.000Z');


export type { ChatKind, ChatRecord } from './chat-record.js';
import type { ChatRecord } from './chat-record.js';

export interface ContactRecord {
  instanceId: string;
  tenantId: string;
  /** Phone digits, or `<lid>@lid` while only the LID is known. */
  id: string;
  phone: string | null;
  lid: string | null;
  name: string | null;
  pushName: string | null;
  onNetwork: boolean | null;
  business: boolean;
  about: string | null;
  blocked: boolean;
  pictureUrl: string | null;
  /** When the fetched profile (picture, about) goes stale; null when never fetched. */
  profileExpiresAt: Date | null;
  updatedAt: Date;
}

export const CHAT_FILTERS = ['all', 'unread', 'archived', 'groups', 'direct'] as const;
export type ChatFilter = (typeof CHAT_FILTERS)[number];

/** Where a page of chats starts: after this chat in the list's order. */
export interface ChatPosition {
  pinned: boolean;
  activityAt: Date;
  id: string;
}

/** Where a page of messages starts: older than this one. */
export interface MessagePosition {
  createdAt: Date;
  id: string;
}

/** A chat's own state changing (not its messages). */
export type ChatStateChange =
  | { archived: boolean }
  | { pinned: boolean }
  | { mutedUntil: Date | null }
  | { unread: true };

export interface HistoryStored {
  /** Messages new to the store (a batch seen before stores none). */
  messages: number;
  /** Chats the batch created. */
  chats: ChatRecord[];
  /** Whether this batch's key had been taken before. */
  seen: boolean;
  progress: HistoryProgress;
}

/** The phone's history sync so far, kept on the instance. */
export type HistoryProgress = {
  batches: number;
  messages: number;
  chats: number;
  progress: number;
  done: boolean;
};

/**
 * The read model of an instance's conversations, in the database (docs/conversations.md). Every write
 * stores its events in the same transaction.
 */
export interface ConversationStore {
  listChats(instanceId: string, query: { after: ChatPosition | null; limit: number; filter: ChatFilter; search: string | null }): Promise<ChatRecord[]>;
  findChat(instanceId: string, chatId: string): Promise<ChatRecord | null>;
  /** Newest first, older than `before`. */
  chatMessages(instanceId: string, chatId: string, query: { before: MessagePosition | null; limit: number }): Promise<MessageRecord[]>;
  /** The chat's oldest stored message (where a backfill continues from). */
  oldestMessage(instanceId: string, chatId: string): Promise<MessageRecord | null>;
  changeChat(instanceId: string, chatId: string, change: ChatStateChange, events: (chat: ChatRecord) => OutboxEventInput[]): Promise<ChatRecord | null>;
  /**
   * Unread 0, and the chat's received messages not yet read marked read, atomically with the chat's
   * row locked (an inbound message racing it counts after it, or is among those marked).
   * The messages marked (for the engine's read receipts); null for an unknown chat.
   */
  markChatRead(instanceId: string, chatId: string, at: Date, events: (chat: ChatRecord) => OutboxEventInput[]): Promise<{ chat: ChatRecord; read: MessageRecord[] } | null>;
  /** Forgets the chat and its messages; false for an unknown chat. */
  deleteChat(instanceId: string, chatId: string, events: OutboxEventInput[]): Promise<boolean>;
  listContacts(instanceId: string, query: { after: string | null; limit: number; search: string | null }): Promise<ContactRecord[]>;
  /** How many chats, messages of a chat, and contacts the whole lists hold (a GraphQL connection's totalCount). */
  countChats(instanceId: string, query: { filter: ChatFilter; search: string | null }): Promise<number>;
  countMessages(instanceId: string, chatId: string): Promise<number>;
  countContacts(instanceId: string, query: { search: string | null }): Promise<number>;
  findContact(instanceId: string, contactId: string): Promise<ContactRecord | null>;
  /**
   * Stores what the network told of people: names, and a LID's phone number, which moves the LID's
   * chat and messages to the phone's chat. The contacts created and the contacts changed.
   */
  saveContacts(
    instance: { id: string; tenantId: string },
    contacts: ContactInfo[],
    events: (saved: { created: ContactRecord[]; changed: ContactRecord[]; merged: Array<{ lidChat: string; chat: ChatRecord }> }) => OutboxEventInput[],
  ): Promise<void>;
  saveProfile(instance: { id: string; tenantId: string }, phone: string, profile: ContactProfile, expiresAt: Date): Promise<ContactRecord>;
  /** Keeps on the phone's contact whether the network knows the number (a number check's answer). */
  saveOnNetwork(instance: { id: string; tenantId: string }, phone: string, onNetwork: boolean): Promise<void>;
  setBlocked(instance: { id: string; tenantId: string }, phone: string, blocked: boolean, events: (contact: ContactRecord) => OutboxEventInput[]): Promise<ContactRecord>;
  /**
   * Names group chats as the network names the groups: a group the phone is in is a chat even before
   * its first message. The events (of the chats made and renamed, and the network's own) are stored
   * in the same transaction.
   */
  nameGroups(instance: { id: string; tenantId: string }, groups: Array<{ id: string; subject: string; at: Date | null }>, events: (saved: { created: ChatRecord[]; renamed: ChatRecord[] }) => OutboxEventInput[]): Promise<void>;
  /** Stores a history batch once: its messages (as history), chats and contacts, and the instance's progress. */
  storeHistory(
    instance: { id: string; tenantId: string; phone: string | null },
    batch: HistoryBatch,
    events: (stored: HistoryStored) => OutboxEventInput[],
  ): Promise<HistoryStored>;
}
