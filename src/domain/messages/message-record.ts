import type { MessageMode } from '../actor.js';
import type { JsonValue, MessageDirection, MessageStatus } from './message-values.js';

/** A message as the stores keep it. */
export interface MessageRecord {
  id: string;
  tenantId: string;
  instanceId: string | null;
  apiKeyId: string | null;
  direction: MessageDirection;
  /** The chat network's id of the message, once it has one (receipts and deletes are matched by it). */
  networkMessageId: string | null;
  to: string;
  from: string | null;
  type: string;
  text: string | null;
  mediaUrl: string | null;
  mediaType: string | null;
  caption: string | null;
  location: JsonValue;
  /** A template to send; a network message part with no field of its own (CHAT-CLOUD button and list replies). */
  content: JsonValue;
  /** Inbound media as the network describes it (a MediaDescriptor), else null. */
  media: JsonValue;
  contacts: JsonValue;
  reaction: JsonValue;
  quoted: JsonValue;
  /** The sender's LID when the network hid its phone number and no mapping was known. */
  fromLid: string | null;
  /** Phones the text names as `@<digits>`. */
  mentions: JsonValue;
  /** A poll as sent, with its tally once votes come. */
  poll: JsonValue;
  /** A sent poll's secret (its votes are encrypted with keys drawn from it); never shown. */
  pollSecret: Uint8Array<ArrayBuffer> | null;
  /** A group message's group: {id, subject}. */
  group: JsonValue;
  /** An outbound file's name (a document), as uploaded or taken from the URL. */
  fileName: string | null;
  /** Outbound audio sent as a voice note. */
  voice: boolean;
  /** When the text was last edited. */
  editedAt: Date | null;
  /** When it was deleted for everyone; it is neither edited nor deleted again after that. */
  deletedAt: Date | null;
  status: MessageStatus;
  mode: MessageMode;
  queuedAt: Date | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  /** Why it failed (a MessageError, read with messageErrorOf); null unless failed. */
  error: JsonValue;
  /** The chat it belongs to (docs/conversations.md); null for a routed message not yet given an instance. */
  chatId: string | null;
  /** Taken from the phone's history sync (never announced as messages.upsert). */
  history: boolean;
  /** The SHA-256 of its media's bytes in the media store, once kept (docs/media.md). */
  mediaSha256: string | null;
  /** Where keeping its media stands; null when the policy keeps none of it or it has none. */
  mediaState: 'pending' | 'stored' | 'failed' | null;
  mediaAttempts: number;
  mediaRetryAt: Date | null;
  /** Why keeping its media failed last: {code, message}. */
  mediaError: JsonValue;
  createdAt: Date;
  updatedAt: Date;
}
