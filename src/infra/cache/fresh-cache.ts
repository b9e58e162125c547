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
/** A load that failed, told apart from the cache giving up on a load (an invalidation aborted it). */
class LoadFailed {
  constructor(readonly cause: unknown) {}
}

export function freshCache<V>(options: { ttlMs: number; max: number; load: (key: string) => Promise<V> }): FreshCache<V> {
  // Values are boxed: a load may legitimately find nothing (an unknown key), and that is cached too.
  const cache = new LRUCache<string, { value: V }>({
    max: options.max,
    ttl: options.ttlMs,
    fetchMethod: async (key) => {
      try {
        return { value: await options.load(key) };
      } catch (error) {
        throw new LoadFailed(error);
      }
    },
  });
  return {
    async get(key) {
      try {
        return (await cache.fetch(key))!.value;
      } catch (error) {
        if (error instanceof LoadFailed) throw error.cause;
        // Invalidated while loading: what was loaded may predate the change, so read again.
        return options.load(key);
      }
    },
    forget: (key) => void cache.delete(key),
    clear: () => cache.clear(),
    forEach(visit) {
      for (const entry of cache.values()) visit(entry.value);
    },
  };
}
