import type { Actor } from '../actor.js';
import { RateLimited } from '../errors.js';
import { limitSource } from '../tenants/plans.js';

/** Accepted messages per UTC day: per test key here, and per tenant by its limits (actor.limits) for everything else. */
export interface DailyQuotas {
  testKey: number;
}

/** Counts in named buckets that live at least a day; shared by every node when Redis is configured. */
export interface QuotaCounter {
  /** Takes one unit; false when `limit` units are already taken (null: no limit, always taken). */
  take(bucket: string, limit: number | null): Promise<boolean>;
  /** Gives one unit back (the message was not accepted after all). */
  give(bucket: string): Promise<void>;
  /** Units taken so far, without taking one. */
  used(bucket: string): Promise<number>;
}

export function quotaBucket(actor: Actor, quotas: DailyQuotas, now: Date): { bucket: string; limit: number | null; scope: string } {
  const day = now.toISOString().slice(0, 10);
  if (actor.kind === 'apiKey' && actor.testMode) {
    return { bucket: `test-key:${actor.apiKeyId}:${day}`, limit: quotas.testKey, scope: 'this test key' };
  }
  return { bucket: `tenant:${actor.tenantId}:${day}`, limit: actor.limits.dailyMessages, scope: limitSource(actor, 'dailyMessages') };
}

export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export function secondsUntilUtcMidnight(now: Date): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
}

/** Takes one message of the caller's daily quota; the returned function gives it back. */
export async function takeDailyQuota(counter: QuotaCounter, quotas: DailyQuotas, actor: Actor, now: Date) {
  const { bucket, limit, scope } = quotaBucket(actor, quotas, now);
  if (!(await counter.take(bucket, limit)) && limit !== null) {
    const retryAfter = secondsUntilUtcMidnight(now);
    const resetAt = nextUtcMidnight(now);
    throw new RateLimited(
      retryAfter,
      `Daily message quota of ${scope} reached: ${limit} per UTC day, 0 remaining, resets at ${resetAt.toISOString()} (in ${retryAfter} seconds).`,
      { limit, remaining: 0, resetAt },
    );
  }
  return () => counter.give(bucket);
}
