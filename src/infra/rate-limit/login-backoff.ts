import { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimited } from '../../domain/errors.js';
import type { LimiterFactory } from './limiter-factory.js';

/** How long failed attempts are remembered, and the longest wait. */
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/** An attempt taken from a bucket; giving it back makes room for another. */
export interface Taken {
  giveBack(): Promise<void>;
}

export interface LoginBackoff {
  /** Takes an attempt for `key` now, or throws RateLimited with the seconds until one is free. */
  take(key: string): Promise<Taken>;
  /** Forgets every attempt of `key` (its owner proved who they are). */
  clear(key: string): Promise<void>;
}

const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * `freeAttempts` attempts per window at once; after them one attempt each time a wait has passed,
 * the wait doubling from `firstWaitSeconds` up to the window (docs/rest.md, "Login throttling").
 * Every step is an atomic counter (Redis, or memory), so parallel attempts each take their own.
 */
export function createLoginBackoff(
  limiters: LimiterFactory,
  spec: { keyPrefix: string; freeAttempts: number; firstWaitSeconds: number },
): LoginBackoff {
  const free = limiters({ keyPrefix: spec.keyPrefix, points: spec.freeAttempts, durationSeconds: LOGIN_WINDOW_SECONDS });
  // One attempt per wait once the free ones are spent; its key lives as long as the current wait.
  const slot = limiters({ keyPrefix: `${spec.keyPrefix}-slot`, points: 1, durationSeconds: LOGIN_WINDOW_SECONDS });
  // How many waits this window has had, so each one is twice the last.
  const waits = limiters({ keyPrefix: `${spec.keyPrefix}-waits`, points: 1_000_000, durationSeconds: LOGIN_WINDOW_SECONDS });

  /** Starts the wait that follows the last free attempt, unless one runs already. */
  const startFirstWait = async (key: string) => {
    const had = (await waits.get(key))?.consumedPoints ?? 0;
    // The slot is taken before the count moves: whoever sees a wait counted finds its slot taken.
    if (await takeSlot(key, had)) await waits.consume(key).catch(() => undefined);
  };
  /** The slot for the wait after `had` waits; false while the current wait runs. */
  const takeSlot = async (key: string, had: number) => {
    try {
      await slot.consume(key, 1, { customDuration: Math.min(LOGIN_WINDOW_SECONDS, spec.firstWaitSeconds * 2 ** Math.min(had, 20)) });
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  };
  /** An attempt after the free ones: only once a wait was started and has passed. */
  const takeAfterWait = async (key: string) => {
    const had = (await waits.get(key))?.consumedPoints ?? 0;
    if (had === 0 || !(await takeSlot(key, had))) return false;
    await waits.consume(key).catch(() => undefined);
    return true;
  };

  return {
    async take(key) {
      try {
        const res = await free.consume(key);
        // The last free attempt starts the first wait, so the next one is not checked at once.
        if (res.remainingPoints === 0) await startFirstWait(key);
        return { giveBack: async () => void (await free.reward(key)) };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
      }
      if (await takeAfterWait(key)) {
        return { giveBack: async () => void (await Promise.all([slot.delete(key), waits.reward(key)])) };
      }
      const waiting = await slot.get(key);
      // No wait counted yet: the last free attempt is starting the first one.
      const seconds = waiting ? retryAfter(waiting) : spec.firstWaitSeconds;
      throw new RateLimited(seconds, `Too many failed logins. Retry after ${seconds} seconds.`);
    },
    async clear(key) {
      await Promise.all([free.delete(key), slot.delete(key), waits.delete(key)]);
    },
  };
}
