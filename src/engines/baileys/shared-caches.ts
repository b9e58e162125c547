import type { CacheStore } from 'baileys';
import { LRUCache } from 'lru-cache';

/**
 * One cache for every socket of the node instead of one per socket: the library would make each of
 * these per connection, each with a sweep timer of its own. Entries expire lazily (no timer) and the
 * size is bounded. Only caches keyed by ids unique across the network (message and call ids) are
 * shared; what one device sees of a contact stays its own.
 */
function sharedCache(ttlMs: number, max: number): CacheStore {
  const cache = new LRUCache<string, NonNullable<unknown>>({ max, ttl: ttlMs });
  return {
    get: <T>(key: string) => cache.get(key) as T | undefined,
    set: <T>(key: string, value: T) => void cache.set(key, value as NonNullable<unknown>),
    del: (key: string) => cache.delete(key),
    // Never emptied for one socket: the others use it too.
    flushAll: () => {},
  };
}

export function sharedCaches() {
  return {
    // The library's own lifetimes: an hour for retry counts and placeholders, five minutes for call offers.
    msgRetryCounterCache: sharedCache(60 * 60_000, 100_000),
    placeholderResendCache: sharedCache(60 * 60_000, 100_000),
    callOfferCache: sharedCache(5 * 60_000, 10_000),
  };
}
