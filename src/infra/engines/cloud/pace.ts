/** A little past a second: the API counts by when a request arrives, which can bunch behind a slow one. */
const WINDOW_MS = 1050;

/**
 * At most `perSecond` sends start in any window of a second, per number (CLOUD_MPS, the API's
 * throughput: 80 by default, notes §4). Only an instance's owning node sends for it, so the count
 * of one node is the count of the number.
 */
export function createPace(perSecond: number) {
  const starts = new Map<string, number[]>();
  return {
    /** Resolves when one more send for the number may start (and counts it). */
    async take(key: string): Promise<void> {
      let recent = starts.get(key);
      if (!recent) starts.set(key, (recent = []));
      for (;;) {
        const now = Date.now();
        while (recent.length && now - recent[0]! >= WINDOW_MS) recent.shift();
        if (recent.length < perSecond) {
          recent.push(now);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, WINDOW_MS - (now - recent[0]!)));
      }
    },
    forget(key: string) {
      starts.delete(key);
    },
  };
}
