import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from '../redis.js';

export interface LimiterSpec {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

export type LimiterFactory = (spec: LimiterSpec) => RateLimiterAbstract;

/**
 * Buckets in Redis when it is configured, shared by every node; if Redis becomes unreachable the
 * in-process insurance limiter takes over until it is back.
 */
export function createLimiterFactory(redis: Redis | undefined, redisPrefix: string): LimiterFactory {
  return ({ keyPrefix, points, durationSeconds }) => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${redisPrefix}rl:${keyPrefix}`,
      points,
      duration: durationSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  };
}
