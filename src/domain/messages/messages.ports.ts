import type { MessageMode } from '../actor.js';

export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
export type MessageDirection = 'in' | 'out';

export interface MessageRecord {
  id: string;
  tenantId: string;
  instanceId: string | null;
  apiKeyId: string | null;
  direction: MessageDirection;
  to: string;
  from: string | null;
  type: string;
  text: string | null;
  status: MessageStatus;
  mode: MessageMode;
  queuedAt: Date | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
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
  to: string;
  text: string;
  mode: MessageMode;
  queuedAt: Date;
}

export interface MessageStore {
  /**
   * Stores the message and, when a claim is given, its answer under the idempotency key in the same
   * transaction. Returns `{ replay }` instead when another request claimed the key first.
   */
  createOutbound(
    message: NewOutboundMessage,
    claim: IdempotencyClaim | undefined,
    answer: (message: MessageRecord) => SendResult,
  ): Promise<{ message: MessageRecord; response: SendResult } | { replay: StoredAnswer }>;
  findAnswer(tenantId: string, scope: string, key: string, now: Date): Promise<StoredAnswer | null>;
  findById(id: string): Promise<MessageRecord | null>;
  listByTenant(tenantId: string, offset: number, limit: number): Promise<{ items: MessageRecord[]; total: number }>;
}

/** Which instance carries a tenant's next outbound message. */
export type Route =
  | { kind: 'instance'; instanceId: string }
  | { kind: 'queued' } // active instances exist, none connected: held until one connects
  | { kind: 'none' }; // no active instance at all

export interface MessageRouter {
  route(tenantId: string): Promise<Route>;
}
