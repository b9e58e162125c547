import { describe, expect, it, vi } from 'vitest';
import { createMediaKeeper, KEEP_RETRY_DELAYS_MS } from '../../src/domain/media/media-keeper.js';
import type { KeptMediaStore } from '../../src/domain/media/kept-media.port.js';
import { type MediaStore, mediaStoreFailed, mediaTooLarge } from '../../src/domain/media/media-store.port.js';
import { outboundRecord } from '../../src/domain/messages/outbound-record.js';
import type { MessageRecord, MessageStore } from '../../src/domain/messages/messages.ports.js';
import type { InstanceStore } from '../../src/domain/instances/instances.ports.js';
import type { EngineRegistry } from '../../src/domain/network/engine.port.js';
import type { MediaProbe } from '../../src/domain/media/media-probe.js';
import { manualClock } from '../support/memory-stores.js';

/** A sent document kept with its upload, pending; a store whose put does what `put` says. */
function setUp(put: MediaStore['put'] | null) {
  const clock = manualClock();
  const message: MessageRecord = {
    ...outboundRecord({ tenantId: 't', instanceId: null, apiKeyId: null, to: '5511999990000', type: 'document', text: null, mediaType: 'application/pdf', mode: 'production', queuedAt: clock.now(), routed: false }, 'm-1'),
    mediaState: 'pending',
  };
  const told: Array<{ state: string; retryAt: Date | null; data: unknown }> = [];
  const kept: KeptMediaStore = {
    claim: async ({ messageId }) => (message.mediaState === 'pending' && messageId ? [messageId] : []),
    anyDue: async () => false,
    hold: async () => true,
    stored: async (_m, blob, events) => {
      Object.assign(message, { mediaState: 'stored', mediaSha256: blob.sha256, mediaAttempts: message.mediaAttempts + 1 });
      told.push({ state: 'stored', retryAt: null, data: events[0]!.data });
    },
    failed: async (_m, error, retryAt, events) => {
      Object.assign(message, { mediaState: retryAt ? 'pending' : 'failed', mediaAttempts: message.mediaAttempts + 1, mediaError: error, mediaRetryAt: retryAt });
      told.push({ state: message.mediaState!, retryAt, data: events[0]!.data });
    },
    dropped: async () => {
      message.mediaState = null;
    },
  };
  const store = put && ({ name: 'memory', kind: 'folder', put, open: async () => { throw new Error('unused'); }, has: async () => false, remove: async () => {} } satisfies MediaStore);
  const keeper = createMediaKeeper({
    kept,
    messages: { findById: async () => ({ ...message }), fileOf: async () => Buffer.from('%PDF-1.4 the file') } as unknown as MessageStore,
    instances: { findById: async () => null } as unknown as InstanceStore,
    engines: { of: () => undefined } as unknown as EngineRegistry,
    probe: {} as MediaProbe,
    store,
    clock,
    report: (error) => {
      throw error;
    },
  });
  /** One attempt, awaited through what it told. */
  const attempt = async () => {
    const before = told.length;
    keeper.keep(message.id);
    await vi.waitFor(() => expect(told.length).toBe(before + 1));
    return told.at(-1)!;
  };
  return { message, told, keeper, attempt, clock };
}

describe('the media keeper', () => {
  it('stores the bytes and tells stored with the hash and size', async () => {
    const { attempt, message, keeper } = setUp(async () => ({ sha256: 'a'.repeat(64), size: 17 }));
    expect(await attempt()).toEqual({ state: 'stored', retryAt: null, data: { messageId: 'm-1', media: { stored: true, sha256: 'a'.repeat(64), size: 17 } } });
    expect(message.mediaSha256).toBe('a'.repeat(64));
    await keeper.stop();
  });

  it('a store that fails is tried again after 2 s, 10 s, 1 min, 5 min and 30 min, then failed for good', async () => {
    const { attempt, clock, keeper } = setUp(async () => {
      throw mediaStoreFailed('ENOTDIR writing to the media folder');
    });
    for (const delay of KEEP_RETRY_DELAYS_MS) {
      const outcome = await attempt();
      expect(outcome.state).toBe('pending');
      expect(outcome.retryAt!.getTime() - clock.now().getTime()).toBe(delay);
      expect(outcome.data).toEqual({
        messageId: 'm-1',
        media: { stored: false, error: { code: 'media_store_failed', message: expect.stringContaining('ENOTDIR') }, retryAt: outcome.retryAt!.toISOString() },
      });
    }
    const last = await attempt();
    expect(last).toEqual({ state: 'failed', retryAt: null, data: { messageId: 'm-1', media: { stored: false, error: expect.objectContaining({ code: 'media_store_failed' }) } } });
    await keeper.stop();
  });

  it('a file over the policy is failed at once, with no retry', async () => {
    const { attempt, keeper } = setUp(async () => {
      throw mediaTooLarge(10);
    });
    expect(await attempt()).toMatchObject({ state: 'failed', retryAt: null, data: { media: { stored: false, error: { code: 'media_too_large' } } } });
    await keeper.stop();
  });

  it('with no store nothing is marked pending, and a pending message is left as it is', async () => {
    const { keeper, told } = setUp(null);
    expect(keeper.stateFor({ mediaPolicy: null }, 'image')).toBeNull();
    keeper.keep('m-1');
    expect(await keeper.sweep()).toBe(false);
    expect(told).toEqual([]);
  });

  it('marks pending only the kinds the policy keeps', () => {
    const { keeper } = setUp(async () => ({ sha256: 'a'.repeat(64), size: 1 }));
    expect(keeper.stateFor({ mediaPolicy: null }, 'video')).toBe('pending');
    expect(keeper.stateFor({ mediaPolicy: { keep: 'none' } }, 'image')).toBeNull();
    expect(keeper.stateFor({ mediaPolicy: { keep: ['image'] } }, 'image')).toBe('pending');
    expect(keeper.stateFor({ mediaPolicy: { keep: ['image'] } }, 'document')).toBeNull();
    expect(keeper.stateFor({ mediaPolicy: null }, null)).toBeNull();
  });
});
