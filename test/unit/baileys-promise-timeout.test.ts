import { describe, expect, it, vi } from 'vitest';
import { DisconnectReason, promiseTimeout } from 'baileys';

/**
 * The library wraps every frame it sends and every answer it waits for in `promiseTimeout`. Our patch
 * (scripts/patches/baileys+…) formats the caller's stack only when the wait times out, instead of twice
 * on every call plus an error built on every success; what a caller sees must not change.
 */
describe('the library’s promiseTimeout, as patched', () => {
  it('answers what the work answers, and leaves no timer behind', async () => {
    // Fake timers count only the timers made here, not those of whatever else runs in this worker.
    vi.useFakeTimers();
    try {
      await expect(promiseTimeout(60_000, (resolve) => resolve('done'))).resolves.toBe('done');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes the work’s own failure through', async () => {
    await expect(promiseTimeout(60_000, (_resolve, reject) => reject(new Error('socket closed')))).rejects.toThrow('socket closed');
  });

  it('times out with the library’s Timed Out error, carrying the stack of the call that waited', async () => {
    async function waitingCaller() {
      return promiseTimeout(20, () => {});
    }
    const error = (await waitingCaller().catch((caught: unknown) => caught)) as { message: string; output: { statusCode: number }; data: { stack: string } };
    expect(error.message).toBe('Timed Out');
    expect(error.output.statusCode).toBe(DisconnectReason.timedOut);
    expect(error.data.stack).toContain('waitingCaller');
  });
});
