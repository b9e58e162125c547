import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { QuotaCounter } from '../../domain/messages/send-quota.js';
import type { LimiterFactory } from './limiter-factory.js';

// Buckets are named per day by the domain; two days of life is enough for any of them to be read.
const BUCKET_LIFETIME_S = 2 * 24 * 3600;

/** Daily quotas on rate-limiter-flexible: Redis when configured (with in-memory insurance), else memory. */
export function createQuotaCounter(limiters: LimiterFactory): QuotaCounter {
  const byLimit = new Map<number, RateLimiterAbstract>();
  const limiterFor = (limit: number) => {
    let limiter = byLimit.get(limit);
    if (!limiter) {
      limiter = limiters({ keyPrefix: `quota:${limit}`, points: limit, durationSeconds: BUCKET_LIFETIME_S });
      byLimit.set(limit, limiter);
    }
    return limiter;
  };

  return {
    async take(bucket, limit) {
      if (limit <= 0) return false;
      try {
        await limiterFor(limit).consume(bucket);
        return true;
      } catch (error) {
        if (error instanceof Error) throw error;
        return false; // a RateLimiterRes: the bucket is full
      }
    },
    async give(bucket, limit) {
      await limiterFor(limit).reward(bucket, 1);
    },
    async used(bucket, limit) {
      if (limit <= 0) return 0;
      return Math.min(limit, (await limiterFor(limit).get(bucket))?.consumedPoints ?? 0);
    },
  };
}
