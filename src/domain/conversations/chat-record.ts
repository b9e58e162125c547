import type { MessageRecord } from '../messages/message-record.js';

export type ChatKind = 'direct' | 'group';

/** A chat as the stores read it: the row, its resolved name and its newest message (docs/conversations.md). */
export interface ChatRecord {
  instanceId: string;
  tenantId: string;
  id: string;
  kind: ChatKind;
  /** Saved name, else push name, else group subject, else the id's digits. */
  name: string;
  lastMessage: MessageRecord | null;
  unreadCount: number;
  archived: boolean;
  pinned: boolean;
  /** MUTED_FOREVER when muted for good. */
  mutedUntil: Date | null;
  /** When its newest message was sent (the list's order after pinned chats). */
  activityAt: Date;
  createdAt: Date;
  updatedAt: Date;
}
