import type { LoginThrottle } from '../../domain/auth/auth.ports.js';
import { RateLimited } from '../../domain/errors.js';
import type { LimiterFactory } from './limiter-factory.js';
import { createLoginBackoff, type Taken } from './login-backoff.js';

/**
 * Login attempts per email and per client address (docs/rest.md, "Login throttling"), taken before
 * the password is verified. A success clears the email's count and gives the address its attempt back.
 */
export function createLoginThrottle(limiters: LimiterFactory, limits: { perEmail: number; perIp: number; firstWaitSeconds: number }): LoginThrottle {
  const byEmail = createLoginBackoff(limiters, { keyPrefix: 'login-email', freeAttempts: limits.perEmail, firstWaitSeconds: limits.firstWaitSeconds });
  const byIp = createLoginBackoff(limiters, { keyPrefix: 'login-ip', freeAttempts: limits.perIp, firstWaitSeconds: limits.firstWaitSeconds });

  return {
    async take(email, ip) {
      const [forEmail, forIp] = await Promise.allSettled([byEmail.take(email), byIp.take(ip)]);
      if (forEmail.status === 'rejected' || forIp.status === 'rejected') {
        // A refused attempt is not verified, so what the other bucket gave is given back.
        const taken = [forEmail, forIp].filter((r): r is PromiseFulfilledResult<Taken> => r.status === 'fulfilled');
        await Promise.all(taken.map((r) => r.value.giveBack()));
        const refusals = [forEmail, forIp].flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
        // Both refused: the longer wait is the one that applies.
        throw refusals.reduce((a, b) => (a instanceof RateLimited && b instanceof RateLimited && b.retryAfter > a.retryAfter ? b : a));
      }
      return {
        succeeded: async () => void (await Promise.all([byEmail.clear(email), forIp.value.giveBack()])),
        giveBack: async () => void (await Promise.all([forEmail.value.giveBack(), forIp.value.giveBack()])),
      };
    },
  };
}
