import { describe, expect, it } from 'vitest';
import { nextMessageStatus } from '../../src/domain/messages/message-status.js';
import { MESSAGE_STATUSES, type MessageStatus } from '../../src/domain/messages/message-values.js';

describe('message status', () => {
  // Every pair of (current, reported): what the status becomes.
  const EXPECTED: Record<MessageStatus, Record<MessageStatus, MessageStatus>> = {
    queued: { queued: 'queued', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' },
    sent: { queued: 'sent', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' },
    delivered: { queued: 'delivered', sent: 'delivered', delivered: 'delivered', read: 'read', failed: 'failed' },
    read: { queued: 'read', sent: 'read', delivered: 'read', read: 'read', failed: 'failed' },
    failed: { queued: 'failed', sent: 'failed', delivered: 'failed', read: 'failed', failed: 'failed' },
  };
  const pairs = MESSAGE_STATUSES.flatMap((current) => MESSAGE_STATUSES.map((reported) => [current, reported] as const));

  it.each(pairs)('%s + %s', (current, reported) => {
    expect(nextMessageStatus(current, reported)).toBe(EXPECTED[current][reported]);
  });

  it('never moves backwards along queued → sent → delivered → read', () => {
    const order: MessageStatus[] = ['queued', 'sent', 'delivered', 'read'];
    for (const [i, current] of order.entries()) {
      for (const reported of order.slice(0, i)) expect(nextMessageStatus(current, reported)).toBe(current);
    }
  });
});
