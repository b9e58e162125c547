import { describe, expect, it } from 'vitest';
import { retentionPace } from '../../src/infra/db/retention.js';

const DAY = 86_400_000;
const MINUTE = 60_000;

describe('the retention sweep\'s pace', () => {
  it('backs off when idle, at the defaults: once a minute while it deletes, every five minutes once it finds nothing', () => {
    // Half the outbox's ten-minute grace bounds the idle wait: nothing waits more than that past its time.
    expect(retentionPace({ messages: 90 * DAY, deliveries: 30 * DAY, connections: 30 * DAY })).toEqual({ busyMs: MINUTE, idleMs: 5 * MINUTE });
    expect(retentionPace({ messages: null, deliveries: null, connections: null })).toEqual({ busyMs: MINUTE, idleMs: 5 * MINUTE });
  });

  it('sweeps within half the shortest retention, and at most once a second', () => {
    expect(retentionPace({ messages: 30_000, deliveries: null, connections: null })).toEqual({ busyMs: 15_000, idleMs: 15_000 });
    // Delivery logs kept for four minutes shorten the outbox's grace too.
    expect(retentionPace({ messages: null, deliveries: 4 * MINUTE, connections: null })).toEqual({ busyMs: MINUTE, idleMs: 2 * MINUTE });
    expect(retentionPace({ messages: 3000, deliveries: 3000, connections: 3000 })).toEqual({ busyMs: 1500, idleMs: 1500 });
    expect(retentionPace({ messages: 1000, deliveries: null, connections: null })).toEqual({ busyMs: 1000, idleMs: 1000 });
  });

  it('counts RETENTION_MEDIA among the retentions, and the messages\' when it is not set', () => {
    expect(retentionPace({ messages: null, deliveries: null, connections: null, media: 30_000 })).toEqual({ busyMs: 15_000, idleMs: 15_000 });
    expect(retentionPace({ messages: 30_000, deliveries: null, connections: null, media: null })).toEqual({ busyMs: 15_000, idleMs: 15_000 });
    expect(retentionPace({ messages: 90 * DAY, deliveries: 30 * DAY, connections: 30 * DAY, media: 7 * DAY })).toEqual({ busyMs: MINUTE, idleMs: 5 * MINUTE });
  });
});
