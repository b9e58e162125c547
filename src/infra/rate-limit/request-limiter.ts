import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Actor } from '../../domain/actor.js';
import { RateLimited } from '../../domain/errors.js';
import type { InFlightSlots } from './in-flight.js';
import type { LimiterFactory } from './limiter-factory.js';

export interface WindowState {
  name: 'minute' | 'hour';
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window starts over. */
  resetIn: number;
}

export interface Admission {
  windows: WindowState[];
  /** Frees the in-flight slot; call once the response is done. */
  leave(): void;
}

/** Past a limit; carries the window state so the answer can still show the headers. */
export class RequestLimitExceeded extends RateLimited {
  constructor(
    retryAfter: number,
    readonly windows: WindowState[],
    message: string,
  ) {
    super(retryAfter, message);
  }
}

export interface RequestLimits {
  perMinute: number;
  perHour: number;
  burst: number;
}

export interface RequestLimiter {
  /** Counts one request of `subject` (an API key or a user); throws RequestLimitExceeded past a limit. */
  enter(subject: string): Promise<Admission>;
  /** Requests of `subject` counted in the current minute window so far, and the limit; null without limits. */
  minuteUsage(subject: string): Promise<{ used: number; max: number } | null>;
}

/** Requests per minute and per hour (fixed windows) and requests in flight, per subject. */
export function createRequestLimiter(limiters: LimiterFactory, slots: InFlightSlots, limits: RequestLimits): RequestLimiter {
  const windows = [
    { name: 'minute' as const, limit: limits.perMinute, windowSeconds: 60 },
    { name: 'hour' as const, limit: limits.perHour, windowSeconds: 3600 },
  ].map((w) => ({ ...w, limiter: limiters({ keyPrefix: `req-${w.name}`, points: w.limit, durationSeconds: w.windowSeconds }) }));

  return {
    async minuteUsage(subject) {
      const minute = windows[0]!;
      const res = await minute.limiter.get(subject);
      return { used: Math.min(minute.limit, res?.consumedPoints ?? 0), max: minute.limit };
    },
    async enter(subject) {
      // Windows and the in-flight slot in parallel: one round trip to Redis instead of two.
      const [results, leave] = await Promise.all([
        Promise.all(
          windows.map(async (w) => {
            try {
              return { w, res: await w.limiter.consume(subject), exceeded: false };
            } catch (error) {
              if (error instanceof RateLimiterRes) return { w, res: error, exceeded: true };
              throw error;
            }
          }),
        ),
        slots.acquire(subject, limits.burst),
      ]);
      const states: WindowState[] = results.map(({ w, res }) => ({
        name: w.name,
        limit: w.limit,
        windowSeconds: w.windowSeconds,
        remaining: Math.max(0, res.remainingPoints),
        resetIn: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      }));
      const exceeded = results.filter((r) => r.exceeded);
      if (exceeded.length) {
        leave?.();
        const retryAfter = Math.max(...exceeded.map((r) => Math.max(1, Math.ceil(r.res.msBeforeNext / 1000))));
        const names = exceeded.map((r) => `${r.w.limit} requests per ${r.w.name}`).join(' and ');
        throw new RequestLimitExceeded(retryAfter, states, `Rate limit of ${names} exceeded. Retry after ${retryAfter} seconds.`);
      }
      if (!leave) {
        throw new RequestLimitExceeded(1, states, `At most ${limits.burst} requests may be in flight at once. Retry after 1 second.`);
      }
      return { windows: states, leave };
    },
  };
}

/** For benchmarks: admits everything. */
export const unlimited: RequestLimiter = { enter: async () => ({ windows: [], leave: () => {} }), minuteUsage: async () => null };

/**
 * X-RateLimit-* of the most constrained window (Reset in Unix epoch seconds), and the IETF draft
 * RateLimit-Policy / RateLimit headers for every window.
 */
export function rateLimitHeaders(windows: WindowState[], now = Date.now()): Record<string, string> {
  if (windows.length === 0) return {};
  const tightest = windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return {
    'X-RateLimit-Limit': String(tightest.limit),
    'X-RateLimit-Remaining': String(tightest.remaining),
    'X-RateLimit-Reset': String(Math.ceil(now / 1000) + tightest.resetIn),
    'RateLimit-Policy': windows.map((w) => `"${w.name}";q=${w.limit};w=${w.windowSeconds}`).join(', '),
    RateLimit: windows.map((w) => `"${w.name}";r=${w.remaining};t=${w.resetIn}`).join(', '),
  };
}

/** Whose buckets a request counts against: the API key, or the user of a session. */
export function subjectOf(actor: Actor): string {
  return actor.kind === 'apiKey' ? `key:${actor.apiKeyId}` : `user:${actor.userId}`;
}

/**
 * Admits one request of `actor` and shows the limits through `setHeader`, on success and on 429
 * alike. The caller frees the slot with `leave()` when the response is done.
 */
export async function admit(
  limiter: RequestLimiter,
  actor: Actor,
  setHeader: (name: string, value: string) => void,
): Promise<Admission> {
  try {
    const admission = await limiter.enter(subjectOf(actor));
    for (const [name, value] of Object.entries(rateLimitHeaders(admission.windows))) setHeader(name, value);
    return admission;
  } catch (error) {
    if (error instanceof RequestLimitExceeded) {
      for (const [name, value] of Object.entries(rateLimitHeaders(error.windows))) setHeader(name, value);
    }
    throw error;
  }
}
