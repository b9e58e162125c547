import type { InboundMessage } from './engine-messages.js';

/**
 * What a phone tells a linked device of its past and its address book (docs/conversations.md). A chat
 * is named as the gateway names it: the peer's phone digits, a group id, or `<lid>@lid` for a person
 * the network hid the number of and no mapping is known for.
 */

/** A person the phone knows: any of its numbers, its hidden id, and the names it goes by. */
export interface ContactInfo {
  /** Phone digits; null when only the LID is known. */
  phone: string | null;
  /** The network's hidden id (digits, without `@lid`), when known. */
  lid?: string | null;
  /** The name the phone's owner saved it under. */
  name?: string | null;
  /** The name the person gave themselves. */
  pushName?: string | null;
  business?: boolean;
}

/** A chat's state on the phone, as its history carries it. */
export interface HistoryChat {
  chat: string;
  /** A group's subject, or a direct chat's saved name. */
  name?: string | null;
  unreadCount?: number;
  archived?: boolean;
  pinned?: boolean;
  mutedUntil?: Date | 'forever' | null;
}

/** A message the phone had before the device was linked; `fromMe` ones were sent from the phone. */
export interface HistoryMessage {
  chat: string;
  fromMe: boolean;
  at: Date;
  /** For `fromMe` messages `from` is null; the status the phone last saw of them. */
  message: InboundMessage;
  status?: 'sent' | 'delivered' | 'read';
}

/**
 * One batch of the phone's history sync, as the engine decoded it. `key` names the batch on the network
 * (a batch handed over twice has the same key); `progress` is 0–100 when the network says.
 */
export interface HistoryBatch {
  key: string;
  chats: HistoryChat[];
  contacts: ContactInfo[];
  messages: HistoryMessage[];
  progress: number | null;
  /** The network's last batch of this sync. */
  done: boolean;
}

/** How far back a phone's history is taken (per instance; docs/conversations.md). */
export interface HistorySyncPolicy {
  mode: 'none' | 'recent' | 'full';
  /** For `recent`: how many days back. */
  days: number;
}

export const DEFAULT_HISTORY_SYNC: HistorySyncPolicy = { mode: 'recent', days: 30 };

/** What a chat's owner changes of it on the phone: archived, pinned, muted, or marked unread. */
export type ChatChange = { archived: boolean } | { pinned: boolean } | { mutedUntil: Date | 'forever' | null } | { unread: true };

/** A person's profile as the network answers it. */
export interface ContactProfile {
  about: string | null;
  /** The profile picture's URL on the network (it expires), or null when none is shown. */
  pictureUrl: string | null;
  business: boolean;
  onNetwork: boolean;
}
