import type { MessageStatus } from './message-values.js';
import type { MessageRecord } from './messages.ports.js';
import type { MessageError } from './message-error.js';

/** How far along a message is; a status never moves to a lower rank. */
const RANK: Record<MessageStatus, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

/**
 * The status a message has after `reported` arrives while it is `current`: statuses only move
 * forward, and a failed message stays failed. A late "delivered" after "read" keeps "read" (its time
 * is still recorded by the caller).
 */
export function nextMessageStatus(current: MessageStatus, reported: MessageStatus): MessageStatus {
  if (current === 'failed') return current;
  return RANK[reported] > RANK[current] ? reported : current;
}

const STAMP = { delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' } as const;

/**
 * A message after a report of `status` at `at`: the status moves as nextMessageStatus says, each
 * step's time is kept once set, and a message read is delivered too (a phone with the chat open
 * sends no delivery receipt: it is implied), at the time of the read if no delivery was reported.
 */
export function withReport(message: MessageRecord, status: 'delivered' | 'read' | 'failed', at: Date, error?: MessageError): MessageRecord {
  const stamp = STAMP[status];
  return {
    ...message,
    [stamp]: message[stamp] ?? at,
    ...(status === 'read' ? { deliveredAt: message.deliveredAt ?? at } : {}),
    ...(error ? { error } : {}),
    status: nextMessageStatus(message.status, status),
    updatedAt: at,
  };
}

/** A queued message nobody could carry for this long fails. */
export const QUEUED_MESSAGE_LIFETIME_MS = 24 * 60 * 60 * 1000;
