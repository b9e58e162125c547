import { RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginThrottle } from '../../domain/auth/auth.ports.js';
import { RateLimited } from '../../domain/errors.js';
import type { LimiterFactory } from './limiter-factory.js';

const WINDOW_SECONDS = 15 * 60;

/** Failed logins per email and per client address within 15 minutes; a success clears the email's count. */
export function createLoginThrottle(limiters: LimiterFactory, limits: { perEmail: number; perIp: number }): LoginThrottle {
  const byEmail = limiters({ keyPrefix: 'login-email', points: limits.perEmail, durationSeconds: WINDOW_SECONDS });
  const byIp = limiters({ keyPrefix: 'login-ip', points: limits.perIp, durationSeconds: WINDOW_SECONDS });

  const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

  return {
    async check(email, ip) {
      const [emailRes, ipRes] = await Promise.all([byEmail.get(email), byIp.get(ip)]);
      for (const [res, points] of [
        [emailRes, limits.perEmail],
        [ipRes, limits.perIp],
      ] as const) {
        if (res && res.consumedPoints >= points) {
          throw new RateLimited(retryAfter(res), `Too many failed logins. Retry after ${retryAfter(res)} seconds.`);
        }
      }
    },
    async recordFailure(email, ip) {
      // consume rejects with a RateLimiterRes once the bucket is full; the next check reports it.
      await Promise.allSettled([byEmail.consume(email), byIp.consume(ip)]);
    },
    async recordSuccess(email) {
      await byEmail.delete(email);
    },
  };
}
