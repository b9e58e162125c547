import type { DashboardInboxChatChangesSubscription, ChatFilter, InboxChatFragment } from '../generated/graphql.js';

export type ChatEvent = DashboardInboxChatChangesSubscription['chatUpdated'];

/** One chatUpdated subscription per inbox, heard by the list and the open chat. */
export interface ChatEvents {
  on(listener: (event: ChatEvent) => void): () => void;
}

export function chatEvents(): ChatEvents & { emit(event: ChatEvent): void } {
  const listeners = new Set<(event: ChatEvent) => void>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event) => listeners.forEach((listener) => listener(event)),
  };
}

/** Whether a chat belongs in a list with this filter and search, as the gateway decides it (docs/conversations.md). */
export function belongs(chat: InboxChatFragment, filter: ChatFilter, search: string): boolean {
  const kept = filter === 'all' || (filter === 'unread' ? chat.unreadCount > 0 : filter === 'archived' ? chat.archived : filter === 'groups' ? chat.kind === 'group' : chat.kind === 'direct');
  return kept && (!search || chat.name.toLowerCase().includes(search.toLowerCase()) || chat.chatId.includes(search));
}

/** The list's order: pinned chats first, then by newest activity. */
export function byActivity(a: InboxChatFragment, b: InboxChatFragment): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  const at = (chat: InboxChatFragment) => chat.lastMessage?.createdAt ?? chat.updatedAt;
  return at(b).localeCompare(at(a));
}
