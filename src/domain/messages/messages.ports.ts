import type { Lease } from '../ownership/lease.js';
import type { ChatRecord } from '../conversations/chat-record.js';
import type { MessageError } from './message-error.js';
import type { MessageMode } from '../actor.js';
import type { InstanceVariant } from '../instances/state-machine.js';

import type { JsonValue, MessageDirection, MessageStatus } from './message-values.js';
import type { InboundContact, InboundType, OutboundKind } from '../network/engine-messages.js';
import type { InboundMediaType, MediaDescriptor } from '../media/media-source.js';

export type { MessageDirection, MessageStatus };

export type { JsonValue };

export type { MessageRecord } from './message-record.js';
import type { MessageRecord } from './message-record.js';

/** What narrows a tenant's message list (GET /v1/messages/list); `until` is exclusive. */
export interface MessageListFilter {
  instanceId?: string | null;
  chatId?: string | null;
  direction?: MessageDirection | null;
  status?: MessageStatus | null;
  since?: Date | null;
  until?: Date | null;
}

/** What a send answers; stored as-is for idempotent replays. */
export interface SendResult {
  id: string;
  status: MessageStatus;
  timestamp: string;
  mode: MessageMode;
}

export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
  expiresAt: Date;
}

export interface StoredAnswer {
  fingerprint: string;
  response: SendResult;
}

export interface NewOutboundMessage {
  tenantId: string;
  instanceId: string | null;
  apiKeyId: string | null;
  /** Phone digits or a group id. */
  to: string;
  type: OutboundKind;
  text: string | null;
  mentions?: string[] | null;
  location?: JsonValue;
  contacts?: JsonValue;
  /** A reaction: {emoji, messageId, networkMessageId} of the message reacted to. */
  reaction?: JsonValue;
  /** The message replied to: {messageId, networkMessageId}. */
  quoted?: JsonValue;
  poll?: JsonValue;
  /** A poll's secret, made when it is accepted (32 random bytes). */
  pollSecret?: Buffer | null;
  fileName?: string | null;
  voice?: boolean;
  /** An uploaded file's bytes, kept with the message (MessageFile). */
  fileBytes?: Buffer | null;
  /** A template message's template (CHAT-CLOUD). */
  content?: JsonValue;
  mediaUrl?: string | null;
  mediaType?: string | null;
  caption?: string | null;
  mode: MessageMode;
  queuedAt: Date;
  /** Bytes of fetched media, added to the instance's mediaSize. */
  mediaBytes?: number;
  /** `pending` when its media is to be kept (docs/media.md). */
  mediaState?: 'pending' | null;
  /**
   * Picked by the router (the instance must still be active and connected when the message is
   * stored) rather than named by the caller (it must still be active and able to connect).
   */
  routed: boolean;
}

/** What sending through an instance needs of it, read together with its queue. */
export interface SendingInstance {
  id: string;
  tenantId: string;
  /** The integration it runs on: which engine carries its messages. */
  engine: string;
  phone: string;
  name: string;
  variant: InstanceVariant;
  webhookUrl: string | null;
  webhookEvents: string[];
  /** The row's stored settings (storedSettingsOf reads them): the queue's pacing. */
  settings: unknown;
  /** Set while the network holds the instance's sending (docs/settings.md, "Restrictions"). */
  restrictedUntil: Date | null;
  restrictedReason: string | null;
  /** The body of its webhook deliveries (docs/evolution.md, "Webhooks"). */
  webhookFormat: string;
}

/** What pacing needs of an instance's past hand-overs (docs/settings.md, "Sending"). */
export interface SendingPace {
  lastSentAt: Date | null;
  /** When each first message to a new contact went out since the time asked for, oldest first. */
  newContactsSentAt: Date[];
}

export interface OutboxEventInput {
  event: string;
  data: Record<string, unknown>;
}

export interface NewInboundMessage {
  tenantId: string;
  instanceId: string;
  /** The chat it belongs to (conversations/chat-id.ts). */
  chatId: string;
  /** The name the sender gave themselves, kept on their contact. */
  pushName?: string | null;
  /** The network's id: the same message reported again is stored once. */
  networkMessageId: string | null;
  /** Phone digits; null when the network gave only a LID it has no phone number for. */
  from: string | null;
  fromLid: string | null;
  to: string;
  type: InboundType;
  text: string | null;
  caption: string | null;
  location: Record<string, unknown> | null;
  content?: Record<string, unknown> | null;
  media: MediaDescriptor | null;
  contacts: InboundContact[] | null;
  reaction: { emoji: string; messageId: string | null; networkMessageId: string } | null;
  quoted: { messageId: string | null; networkMessageId: string } | null;
  /** Phones the text names as `@<digits>`. */
  mentions?: string[] | null;
  /** A group message's group: its id and subject. */
  group?: { id: string; subject: string | null } | null;
  /** `pending` when its media is to be kept (docs/media.md). */
  mediaState?: 'pending' | null;
  at: Date;
}

export interface MessageStore {
  /**
   * Stores the message, and a claim's answer under its idempotency key in the same transaction. Answers
   * `{ replay }` when another request claimed the key first, `{ unusable }` when the instance can no longer
   * carry it (deleted, deactivated, disconnected since it was picked).
   */
  createOutbound(
    message: NewOutboundMessage,
    claim: IdempotencyClaim | undefined,
    answer: (message: MessageRecord) => SendResult,
  ): Promise<{ message: MessageRecord; response: SendResult } | { replay: StoredAnswer } | { unusable: true }>;
  findAnswer(tenantId: string, scope: string, key: string, now: Date): Promise<StoredAnswer | null>;
  findById(id: string): Promise<MessageRecord | null>;
  /** The instance, when it is connected, with up to `limit` of its queued messages, oldest first. */
  sendingBatch(instanceId: string, limit: number): Promise<{ instance: SendingInstance; messages: MessageRecord[] } | null>;
  /**
   * Gives queued messages that have no instance yet (routed sends accepted while no instance was
   * usable) to their tenant's least recently used active, connected instance: one tenant's, or every
   * tenant's. The instances that received messages.
   */
  routeWaiting(tenantId?: string): Promise<string[]>;
  /** Connected instances that hold queued messages (their dispatch failed or was never kicked). */
  instancesHoldingQueued(): Promise<string[]>;
  /** The instance's last hand-over, and its first messages to new contacts sent after `since`. */
  sendingPace(instanceId: string, since: Date): Promise<SendingPace>;
  /** Of these chats, those the instance never exchanged a message with (nothing sent, nothing received). */
  newChats(instanceId: string, chatIds: string[]): Promise<Set<string>>;
  /** Instances whose restriction ended by `now` but is still on their row (it is lifted on the next dispatch). */
  restrictionsLapsed(now: Date): Promise<string[]>;
  /**
   * queued → sent for each message that is still queued, counted on the instance, each with its
   * events, atomically, while `lease` is the instance's current one; the ids that moved (none
   * once another node took the instance over).
   */
  markSent(
    instance: SendingInstance,
    sent: Array<{ message: MessageRecord; at: Date; events: OutboxEventInput[] }>,
    lease: Lease,
  ): Promise<Set<string>>;
  /** Like recordStatus, for a message of the instance known by the network's id of it; null when there is none. */
  recordNetworkStatus(
    instanceId: string,
    networkMessageId: string,
    status: 'delivered' | 'read' | 'failed',
    at: Date,
    events: (message: MessageRecord, before: MessageRecord) => OutboxEventInput[],
    error?: MessageError,
  ): Promise<MessageRecord | null>;
  findByNetworkId(instanceId: string, networkMessageId: string): Promise<MessageRecord | null>;
  /**
   * Records a status and its time, with the events of the updated message, atomically; the status
   * itself moves as `nextMessageStatus` says. Null for an unknown message.
   */
  recordStatus(
    id: string,
    status: 'delivered' | 'read' | 'failed',
    at: Date,
    events: (message: MessageRecord, before: MessageRecord) => OutboxEventInput[],
    error?: MessageError,
  ): Promise<MessageRecord | null>;
  /**
   * The message's text (its caption, for media) is now `text`, edited at `at`, with its events,
   * atomically; null for an unknown message, 'deleted' (nothing changed) for one deleted for everyone.
   */
  recordEdit(id: string, text: string, at: Date, events: (message: MessageRecord) => OutboxEventInput[]): Promise<MessageRecord | 'deleted' | null>;
  /**
   * Marks the message deleted for everyone at `at`, with its events, atomically; false (nothing
   * stored, no event) when it already was, or is unknown: a delete is recorded and announced once.
   */
  recordDelete(id: string, at: Date, events: OutboxEventInput[]): Promise<boolean>;
  /**
   * Changes a poll's stored tally with `change` (one voter's vote) and stores the events of the
   * changed message, atomically and one change at a time per poll (nodes may count votes at once);
   * null for an unknown message or one that is no poll.
   */
  recordPollVote(id: string, change: (poll: JsonValue) => JsonValue, events: (message: MessageRecord) => OutboxEventInput[]): Promise<MessageRecord | null>;
  /** The bytes of a file uploaded with an outbound message; null when it had none. */
  fileOf(messageId: string): Promise<Buffer | null>;
  /** Stores events of a message that changes nothing else (e.g. messages.delete). */
  emit(message: Pick<MessageRecord, 'tenantId' | 'instanceId'>, events: OutboxEventInput[]): Promise<void>;
  /** Stores a received message with its events; null when the instance already has it (same network id). */
  createInbound(message: NewInboundMessage, events: (message: MessageRecord, chat: { chat: ChatRecord; created: boolean }) => OutboxEventInput[]): Promise<MessageRecord | null>;
  /** Queued messages created before `before` become failed with `error`, each together with its events; the failed messages. */
  failStale(before: Date, at: Date, error: MessageError, events: (message: MessageRecord) => OutboxEventInput[]): Promise<MessageRecord[]>;
  /** Newest first; every field of `filter` given must match. */
  listByTenant(tenantId: string, offset: number, limit: number, filter?: MessageListFilter): Promise<{ items: MessageRecord[]; total: number }>;
}

/** Which instance carries a tenant's next outbound message. */
export type Route =
  | { kind: 'instance'; instanceId: string }
  | { kind: 'queued' } // active instances exist, none connected: held until one connects
  | { kind: 'none' }; // no active instance at all

export interface MessageRouter {
  route(tenantId: string): Promise<Route>;
  /** What this node remembers of the tenant's usable instances proved out of date. */
  forget(tenantId: string): void;
}
