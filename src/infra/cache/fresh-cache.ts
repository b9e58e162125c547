import { LRUCache } from 'lru-cache';

export interface FreshCache<V> {
  /** The value, loaded once for every caller asking at the same time, then kept for at most the TTL. */
  get(key: string): Promise<V>;
  /** Drops one entry; a load already under way for it is not kept. */
  forget(key: string): void;
  /** Drops every entry, loads under way included. */
  clear(): void;
  /** Visits every cached value (to update one in place). */
  forEach(visit: (value: V) => void): void;
}

/**
 * A per-node cache of what the hot path reads on every request. The TTL bounds how stale an entry can
 * be when the invalidation that should have dropped it never arrived (the bus was down).
 */
export function freshCache<V>(options: { ttlMs: number; max: number; load: (key: string) => Promise<V> }): FreshCache<V> {
  // Values are boxed: a load may legitimately find nothing (an unknown key), and that is cached too.
  const cache = new LRUCache<string, { value: V }>({
    max: options.max,
    ttl: options.ttlMs,
    fetchMethod: async (key) => ({ value: await options.load(key) }),
  });
  return {
    async get(key) {
      const status: LRUCache.Status<string, { value: V }> = {};
      try {
        return (await cache.fetch(key, { status }))!.value;
      } catch (error) {
        // Invalidated while loading: what was loaded may predate the change, so read again.
        if (status.fetchAborted) return options.load(key);
        throw error;
      }
    },
    forget: (key) => void cache.delete(key),
    clear: () => cache.clear(),
    forEach(visit) {
      for (const entry of cache.values()) visit(entry.value);
    },
  };
}
