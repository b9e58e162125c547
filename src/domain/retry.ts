import { Unavailable } from './errors.js';

/**
 * Runs `work` until a dependency that was unavailable takes it, backing off up to `maxDelayMs`; other
 * failures are thrown at once. For what must be stored though nobody waits (a delivery receipt).
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
