import pRetry from 'p-retry';

/**
 * Runs `work` again when it failed in a way that wrote nothing and that a later run can get past
 * (`wroteNothing`: a lock cycle PostgreSQL broke, a row deleted under the statement), up to `attempts`
 * runs in all, each after a short random wait that grows (from `firstWaitMs`) so two sides that collided
 * do not collide again. Any other failure, or the last run's, is the caller's.
 */
export function runAgainWhen<T>(wroteNothing: (error: unknown) => boolean, options: { attempts: number; firstWaitMs: number }, work: () => Promise<T>): Promise<T> {
  return pRetry(() => work(), { retries: options.attempts - 1, shouldRetry: wroteNothing, minTimeout: options.firstWaitMs, factor: 2, randomize: true });
}
