import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimited } from '../../src/domain/errors.js';
import { createLimiterFactory } from '../../src/infra/rate-limit/limiter-factory.js';
import { createLoginBackoff } from '../../src/infra/rate-limit/login-backoff.js';
import { REDIS_URL } from '../kit/modes.js';

const redis = new Redis(REDIS_URL, { lazyConnect: true });
afterAll(() => redis.quit().catch(() => undefined));

const stores = [
  { name: 'memory', limiters: () => createLimiterFactory(undefined, '') },
  { name: 'Redis', limiters: () => createLimiterFactory(redis, `test-${randomBytes(4).toString('hex')}:`) },
];

/** The seconds `take` says to wait, or null when it took an attempt. */
async function refusal(take: Promise<unknown>): Promise<number | null> {
  try {
    await take;
    return null;
  } catch (error) {
    if (error instanceof RateLimited) return error.retryAfter;
    throw error;
  }
}

/** Takes an attempt as soon as the wait allows (polling, never sleeping a fixed time). */
async function takeWhenAllowed(take: () => Promise<unknown>) {
  const deadline = Date.now() + 20_000;
  while ((await refusal(take())) !== null) {
    if (Date.now() > deadline) throw new Error('no attempt allowed within 20 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(stores)('login backoff — $name', ({ limiters }) => {
  it('allows the free attempts at once, then one per wait, each wait twice the last', async () => {
    const backoff = createLoginBackoff(limiters(), { keyPrefix: 'login-test', freeAttempts: 3, firstWaitSeconds: 1 });
    const results = await Promise.all(Array.from({ length: 10 }, () => refusal(backoff.take('k'))));
    expect(results.filter((r) => r === null)).toHaveLength(3);
    expect(results.filter((r) => r === 1)).toHaveLength(7);

    await takeWhenAllowed(() => backoff.take('k'));
    expect(await refusal(backoff.take('k'))).toBe(2);
    await takeWhenAllowed(() => backoff.take('k'));
    expect(await refusal(backoff.take('k'))).toBe(4);
    // Another key is not affected.
    expect(await refusal(backoff.take('other'))).toBeNull();
  });

  it('clear forgets every attempt; a free attempt given back can be taken again', async () => {
    const backoff = createLoginBackoff(limiters(), { keyPrefix: 'login-test', freeAttempts: 2, firstWaitSeconds: 60 });
    for (let i = 0; i < 2; i++) await backoff.take('k');
    expect(await refusal(backoff.take('k'))).toBe(60);
    await backoff.clear('k');
    const taken = await backoff.take('k');
    await taken.giveBack();
    await backoff.take('k');
    await backoff.take('k');
    expect(await refusal(backoff.take('k'))).toBeGreaterThan(0);
  });
});
