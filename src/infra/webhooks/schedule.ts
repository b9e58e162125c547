import type { Logger } from '../logger.js';
import type { Redis } from '../redis.js';
import type { DueDelivery } from '../db/outbox.js';

/** When each pending delivery is due. The database stays the truth; this only says what to try next. */
export interface DeliverySchedule {
  /** Adds or moves deliveries; with `keepEarlier`, a delivery already scheduled keeps its time. */
  add(items: DueDelivery[], keepEarlier?: boolean): Promise<void>;
  /**
   * Takes up to `limit` deliveries due by `now` (no two callers ever take the same entry), and says
   * when the next one left is due (null: none is scheduled).
   */
  claimDue(now: Date, limit: number): Promise<{ ids: string[]; nextDueAt: number | null }>;
}

export function memorySchedule(): DeliverySchedule {
  const due = new Map<string, number>();
  return {
    async add(items, keepEarlier) {
      for (const { id, at } of items) {
        const current = due.get(id);
        if (keepEarlier && current !== undefined && current <= at.getTime()) continue;
        due.set(id, at.getTime());
      }
    },
    async claimDue(now, limit) {
      const ids: string[] = [];
      let nextDueAt: number | null = null;
      for (const [id, at] of due) {
        if (at <= now.getTime() && ids.length < limit) {
          due.delete(id);
          ids.push(id);
        } else if (nextDueAt === null || at < nextDueAt) {
          nextDueAt = at;
        }
      }
      return { ids, nextDueAt };
    },
  };
}

// Read and remove in one script, so two nodes never claim one entry; the next entry's time comes along.
const CLAIM = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #ids > 0 then redis.call('ZREM', KEYS[1], unpack(ids)) end
local next = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {ids, next[2] or false}`;

/** A sorted set in Redis shared by every node; per-node memory while Redis is unreachable. */
export function redisSchedule(redis: Redis, prefix: string, logger: Logger): DeliverySchedule {
  const key = `${prefix}webhooks:due`;
  const fallback = memorySchedule();
  let degraded = false;
  const degrade = (error: unknown) => {
    if (!degraded) logger.warn({ err: { message: (error as Error).message } }, 'webhook schedule: Redis unreachable, scheduling per node');
    degraded = true;
  };
  const recovered = () => {
    if (degraded) logger.info('webhook schedule: Redis reachable again');
    degraded = false;
  };

  return {
    async add(items, keepEarlier) {
      if (items.length === 0) return;
      try {
        const args = items.flatMap(({ id, at }) => [at.getTime(), id]);
        await (keepEarlier ? redis.zadd(key, 'LT', ...args) : redis.zadd(key, ...args));
        recovered();
      } catch (error) {
        degrade(error);
        await fallback.add(items, keepEarlier);
      }
    },
    async claimDue(now, limit) {
      const local = await fallback.claimDue(now, limit);
      if (redis.status !== 'ready') return local;
      try {
        const [ids, next] = (await redis.eval(CLAIM, 1, key, now.getTime(), limit - local.ids.length)) as [string[], string | null];
        recovered();
        const shared = next === null ? null : Number(next);
        const nextDueAt = local.nextDueAt === null ? shared : shared === null ? local.nextDueAt : Math.min(local.nextDueAt, shared);
        return { ids: [...local.ids, ...ids], nextDueAt };
      } catch (error) {
        degrade(error);
        return local;
      }
    },
  };
}
