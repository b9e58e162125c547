import type { CacheStore } from 'baileys';
import { LRUCache } from 'lru-cache';

/**
 * One bounded, lazily expiring cache for every socket of the node (the library makes one per socket,
 * each with a timer); only caches keyed by network-wide ids (message and call ids) are shared.
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
