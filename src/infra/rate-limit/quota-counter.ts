import type { QuotaCounter } from '../../domain/messages/send-quota.js';
import type { LimiterFactory } from './limiter-factory.js';

// Buckets are named per day by the domain; two days of life is enough for any of them to be read.
const BUCKET_LIFETIME_S = 2 * 24 * 3600;

/**
 * Daily quotas on rate-limiter-flexible: Redis when configured (with in-memory insurance), else memory.
 * One counter whatever the limit, compared here: a tenant whose limit changes mid-day keeps its count.
 */
export function createQuotaCounter(limiters: LimiterFactory): QuotaCounter {
  const counter = limiters({ keyPrefix: 'quota', points: Number.MAX_SAFE_INTEGER, durationSeconds: BUCKET_LIFETIME_S });

  return {
    async take(bucket, limit) {
      if (limit !== null && limit <= 0) return false;
      const taken = await counter.consume(bucket);
      if (limit === null || taken.consumedPoints <= limit) return true;
      // Past the limit: the unit goes back, so the count stays at the limit however many were refused.
      await counter.reward(bucket, 1);
      return false;
    },
    async give(bucket) {
      await counter.reward(bucket, 1);
    },
    async used(bucket) {
      return (await counter.get(bucket))?.consumedPoints ?? 0;
    },
  };
}
