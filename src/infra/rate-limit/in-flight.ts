import type { Logger } from '../logger.js';
import type { Redis } from '../redis.js';

/** Slots for requests in flight per subject. A slot expires on its own, so a node that dies mid-request cannot leak it. */
export interface InFlightSlots {
  /** A release function, or null when `limit` slots are taken. */
  acquire(subject: string, limit: number): Promise<(() => void) | null>;
}

let nextId = 0;
const slotId = () => `${process.pid}:${Date.now()}:${nextId++}`;

export function memorySlots(ttlMs: number): InFlightSlots {
  const bySubject = new Map<string, Map<string, number>>();
  return {
    async acquire(subject, limit) {
      const now = Date.now();
      let slots = bySubject.get(subject);
      if (!slots) bySubject.set(subject, (slots = new Map()));
      for (const [id, expiresAt] of slots) if (expiresAt <= now) slots.delete(id);
      if (slots.size >= limit) return null;
      const id = slotId();
      slots.set(id, now + ttlMs);
      return () => {
        slots.delete(id);
        if (slots.size === 0 && bySubject.get(subject) === slots) bySubject.delete(subject);
      };
    },
  };
}

// One round trip: drop expired slots, count, take one if there is room. Scores are expiry times in
// Redis's own clock, so nodes with skewed clocks agree.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

/** Shared slots in Redis; while Redis is unreachable, per-node slots in memory. */
export function redisSlots(redis: Redis, prefix: string, ttlMs: number, logger: Logger): InFlightSlots {
  const fallback = memorySlots(ttlMs);
  // A defined command runs by its SHA (EVALSHA), so the script's text is not sent with every request.
  if (!('mgwAcquireSlot' in redis)) redis.defineCommand('mgwAcquireSlot', { numberOfKeys: 1, lua: ACQUIRE });
  const acquireSlot = (redis as unknown as { mgwAcquireSlot(key: string, limit: number, ttlMs: number, id: string): Promise<number> }).mgwAcquireSlot.bind(redis);
  let degraded = false;
  const degrade = (error: unknown) => {
    if (!degraded) logger.warn({ err: { message: (error as Error).message } }, 'in-flight limits: Redis unreachable, limiting per node');
    degraded = true;
  };

  return {
    async acquire(subject, limit) {
      if (redis.status !== 'ready') {
        degrade(new Error(`redis ${redis.status}`));
        return fallback.acquire(subject, limit);
      }
      const key = `${prefix}inflight:${subject}`;
      const id = slotId();
      try {
        const taken = await acquireSlot(key, limit, ttlMs, id);
        if (degraded) logger.info('in-flight limits: Redis reachable again, limits are shared');
        degraded = false;
        if (taken !== 1) return null;
        return () => {
          redis.zrem(key, id).catch(() => {}); // if this fails the slot expires by itself
        };
      } catch (error) {
        degrade(error);
        return fallback.acquire(subject, limit);
      }
    },
  };
}
