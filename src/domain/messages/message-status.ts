import type { MessageStatus } from './message-values.js';

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

/** A queued message nobody could carry for this long fails. */
export const QUEUED_MESSAGE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The error a message gets when it fails for having waited too long. */
export const STALE_MESSAGE_ERROR = 'No connected instance carried the message within 24 hours.';
