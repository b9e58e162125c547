import { Unavailable } from './errors.js';

/**
 * Runs `work` until it stops failing because a dependency is unavailable, waiting longer between
 * tries (up to `maxDelayMs`). Other failures are final and thrown at once. Used for what the gateway
 * must store but nobody waits for, such as an engine's delivery receipt: it is kept until the
 * database takes it. `stopped` ends the waiting at shutdown.
 */
export async function untilStored<T>(
  work: () => Promise<T>,
  options: { firstDelayMs?: number; maxDelayMs?: number; stopped?: () => boolean; onRetry?: (error: unknown) => void } = {},
): Promise<T> {
  let delay = options.firstDelayMs ?? 250;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof Unavailable) || options.stopped?.()) throw error;
      options.onRetry?.(error);
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay = Math.min(delay * 2, options.maxDelayMs ?? 5000);
    }
  }
}
