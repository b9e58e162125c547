import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';
import type { Redis } from '../redis.js';
import { type InFlightSlots, memorySlots, slotId } from './in-flight.js';

/** A fixed window of requests per subject; its limit comes with each request (the caller's plan sets it). */
export interface CountedWindow {
  name: string;
  windowSeconds: number;
}

/** One request counted in every window, and the in-flight slot it took. */
export interface Counted {
  /** Per window, in order: requests counted in it so far (this one included) and ms until it starts over. */
  windows: Array<{ used: number; msLeft: number }>;
  /** Frees the slot; null when no slot was taken (a window is past its limit, or `burst` requests are in flight). */
  release: (() => void) | null;
}

/** Where request counts live: Redis, shared by every node, or this process. */
export interface RequestCounts {
  /** Counts one request of `subject` in every window; takes an in-flight slot if every window still admits it (`limits` in window order). */
  count(subject: string, limits: readonly number[], burst: number): Promise<Counted>;
  /** Requests of `subject` counted so far in the window at `index`. */
  used(subject: string, index: number): Promise<number>;
}

/** In this process: rate-limiter-flexible's memory limiters for the windows, and memory slots. */
export function memoryCounts(windows: CountedWindow[], slotTtlMs: number): RequestCounts {
  // Counters that never refuse: the limit is compared here, so a subject whose limit changes keeps its count.
  const limiters = windows.map((w) => new RateLimiterMemory({ keyPrefix: `req-${w.name}`, points: Number.MAX_SAFE_INTEGER, duration: w.windowSeconds }));
  const slots: InFlightSlots = memorySlots(slotTtlMs);
  return {
    async count(subject, limits, burst) {
      const counted = await Promise.all(
        limiters.map((limiter) =>
          limiter.consume(subject).catch((res: unknown) => {
            if (res instanceof RateLimiterRes) return res;
            throw res;
          }),
        ),
      );
      const within = counted.every((res, i) => res.consumedPoints <= limits[i]!);
      return {
        windows: counted.map((res) => ({ used: res.consumedPoints, msLeft: res.msBeforeNext })),
        release: within ? await slots.acquire(subject, burst) : null,
      };
    },
    async used(subject, index) {
      return (await limiters[index]!.get(subject))?.consumedPoints ?? 0;
    },
  };
}

/*
 * One round trip a request: each window's counter and the in-flight slot, taken only if every window
 * admits it; slot scores are expiry times in Redis's clock, so skewed nodes agree. KEYS: the windows, then
 * the slots. ARGV: each window's length (ms) and limit, the burst, the slot's lifetime and its id.
 */
const COUNT = `
local n = #KEYS - 1
local result = {}
local admitted = true
for i = 1, n do
  local used = redis.call('INCR', KEYS[i])
  local left = redis.call('PTTL', KEYS[i])
  if left < 0 then
    left = tonumber(ARGV[i * 2 - 1])
    redis.call('PEXPIRE', KEYS[i], left)
  end
  result[i * 2 - 1] = used
  result[i * 2] = left
  if used > tonumber(ARGV[i * 2]) then admitted = false end
end
local taken = 0
if admitted then
  local slots = KEYS[n + 1]
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZREMRANGEBYSCORE', slots, '-inf', now)
  if redis.call('ZCARD', slots) < tonumber(ARGV[n * 2 + 1]) then
    redis.call('ZADD', slots, now + tonumber(ARGV[n * 2 + 2]), ARGV[n * 2 + 3])
    redis.call('PEXPIRE', slots, tonumber(ARGV[n * 2 + 2]))
    taken = 1
  end
end
result[n * 2 + 1] = taken
return result`;

type CountCommand = (...keysAndArgs: Array<string | number>) => Promise<number[]>;

/** In Redis, shared by every node; while Redis is unreachable, per-node counts in memory. */
export function redisCounts(redis: Redis, prefix: string, windows: CountedWindow[], slotTtlMs: number, logger: Logger): RequestCounts {
  const fallback = memoryCounts(windows, slotTtlMs);
  // A defined command runs by its SHA (EVALSHA): the script's text is not sent with every request.
  if (!('mgwCountRequest' in redis)) redis.defineCommand('mgwCountRequest', { lua: COUNT });
  const countRequest = (redis as unknown as { mgwCountRequest: CountCommand }).mgwCountRequest.bind(redis);
  // One hash tag per subject: on a Redis Cluster its keys share a slot, as one script needs.
  const keysOf = (subject: string) => {
    const tag = `${prefix}rl:{${subject}}`;
    return { windows: windows.map((w) => `${tag}:${w.name}`), slots: `${tag}:inflight` };
  };
  let degraded = false;
  const degrade = (error: unknown) => {
    if (!degraded) logger.warn({ err: { message: (error as Error).message } }, 'request limits: Redis unreachable, limiting per node');
    degraded = true;
  };

  return {
    async count(subject, limits, burst) {
      if (redis.status !== 'ready') {
        degrade(new Error(`redis ${redis.status}`));
        return fallback.count(subject, limits, burst);
      }
      const windowArgs = windows.flatMap((w, i) => [w.windowSeconds * 1000, limits[i]!]);
      const keys = keysOf(subject);
      const id = slotId();
      let result: number[];
      try {
        result = await countRequest(keys.windows.length + 1, ...keys.windows, keys.slots, ...windowArgs, burst, slotTtlMs, id);
      } catch (error) {
        degrade(error);
        return fallback.count(subject, limits, burst);
      }
      if (degraded) logger.info('request limits: Redis reachable again, limits are shared');
      degraded = false;
      return {
        windows: windows.map((_, i) => ({ used: result[i * 2]!, msLeft: result[i * 2 + 1]! })),
        // If the ZREM fails, the slot expires by itself.
        release: result[windows.length * 2] === 1 ? () => void redis.zrem(keys.slots, id).catch(() => {}) : null,
      };
    },
    async used(subject, index) {
      if (redis.status !== 'ready') return fallback.used(subject, index);
      try {
        return Number((await redis.get(keysOf(subject).windows[index]!)) ?? 0);
      } catch {
        return fallback.used(subject, index);
      }
    },
  };
}
