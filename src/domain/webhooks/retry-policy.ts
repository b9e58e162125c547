/**
 * WEBHOOK_RETRY_DELAYS lists the wait before each attempt: the first (usually 0, at once) and then
 * one after each failure. After `attempt` failed attempts, the next one is due at the returned time,
 * or never (null) when every attempt is spent.
 */
export function nextAttemptAfterFailure(failedAttempts: number, delaysSeconds: readonly number[], now: Date): Date | null {
  const delay = delaysSeconds[failedAttempts];
  return delay === undefined ? null : new Date(now.getTime() + delay * 1000);
}

/** Any 2xx in time is a delivery; redirects, errors and timeouts are failures. */
export function isDelivered(statusCode: number | undefined): boolean {
  return statusCode !== undefined && statusCode >= 200 && statusCode < 300;
}
