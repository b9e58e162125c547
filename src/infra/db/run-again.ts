import pRetry from 'p-retry';

/**
 * Runs `work` again, up to `attempts` runs, when it failed having written nothing in a way a later run
 * gets past (`wroteNothing`: a lock cycle broken, a row deleted under it), after a growing random wait so
 * the sides do not collide again. Any other failure, or the last run's, is the caller's.
 */
export async function runAgainWhen<T>(wroteNothing: (error: unknown) => boolean, options: { attempts: number; firstWaitMs: number }, work: () => Promise<T>): Promise<T> {
  // The first run outside p-retry: it sets up its retry state on every call (about 25 µs, measured),
  // more than a hot statement's own work on this side, and almost every run succeeds.
  let first: unknown;
  try {
    return await work();
  } catch (error) {
    if (!wroteNothing(error) || options.attempts <= 1) throw error;
    first = error;
  }
  // p-retry's first run is the failure already seen, so its waits and count are those of the whole.
  return pRetry((attempt) => (attempt === 1 ? Promise.reject(first) : work()), {
    retries: options.attempts - 1,
    shouldRetry: wroteNothing,
    minTimeout: options.firstWaitMs,
    factor: 2,
    randomize: true,
  });
}
