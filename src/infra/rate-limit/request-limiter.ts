import type { Actor } from '../../domain/actor.js';
import { RateLimited } from '../../domain/errors.js';
import type { CountedWindow, RequestCounts } from './request-counts.js';

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
  /** Counts one request of `subject` (an API key or a user) against `limits`; throws RequestLimitExceeded past one. */
  enter(subject: string, limits: RequestLimits): Promise<Admission>;
  /** Requests of `subject` counted in the current minute window so far, against `perMinute`; null without limits. */
  minuteUsage(subject: string, perMinute: number): Promise<{ used: number; max: number } | null>;
}

/** The fixed windows every subject is limited by, in the order the counts report them. */
export const REQUEST_WINDOWS: ReadonlyArray<CountedWindow & { name: WindowState['name'] }> = [
  { name: 'minute', windowSeconds: 60 },
  { name: 'hour', windowSeconds: 3600 },
];

/** Requests per minute and per hour (fixed windows) and requests in flight, per subject, each subject with its own limits. */
export function createRequestLimiter(counts: RequestCounts): RequestLimiter {
  const windows = REQUEST_WINDOWS;

  return {
    async minuteUsage(subject, perMinute) {
      return { used: Math.min(perMinute, await counts.used(subject, 0)), max: perMinute };
    },
    async enter(subject, limits) {
      const limitOf = [limits.perMinute, limits.perHour];
      const counted = await counts.count(subject, limitOf, limits.burst);
      const states: WindowState[] = windows.map((w, i) => ({
        name: w.name,
        limit: limitOf[i]!,
        windowSeconds: w.windowSeconds,
        remaining: Math.max(0, limitOf[i]! - counted.windows[i]!.used),
        resetIn: Math.max(1, Math.ceil(counted.windows[i]!.msLeft / 1000)),
      }));
      const exceeded = windows.flatMap((w, i) => (counted.windows[i]!.used > limitOf[i]! ? [{ state: states[i]! }] : []));
      if (exceeded.length) {
        counted.release?.();
        const retryAfter = Math.max(...exceeded.map((e) => e.state.resetIn));
        const names = exceeded.map((e) => `${e.state.limit} requests per ${e.state.name}`).join(' and ');
        throw new RequestLimitExceeded(retryAfter, states, `Rate limit of ${names} exceeded. Retry after ${retryAfter} seconds.`);
      }
      if (!counted.release) {
        throw new RequestLimitExceeded(1, states, `At most ${limits.burst} requests may be in flight at once. Retry after 1 second.`);
      }
      return { windows: states, leave: counted.release };
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

/** The request limits of the caller's tenant (its plan's, or its own). */
export function requestLimitsOf(actor: Actor): RequestLimits {
  return { perMinute: actor.limits.requestsPerMinute, perHour: actor.limits.requestsPerHour, burst: actor.limits.burst };
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
    const admission = await limiter.enter(subjectOf(actor), requestLimitsOf(actor));
    for (const [name, value] of Object.entries(rateLimitHeaders(admission.windows))) setHeader(name, value);
    return admission;
  } catch (error) {
    if (error instanceof RequestLimitExceeded) {
      for (const [name, value] of Object.entries(rateLimitHeaders(error.windows))) setHeader(name, value);
    }
    throw error;
  }
}
