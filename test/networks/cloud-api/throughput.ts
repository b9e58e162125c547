// Throughput (the API's throughput limits): messages per second per number, over which the API answers 130429, and the
// (business, user) pair rate, over which it answers 131056.

const SECOND = 1000;

/** Sliding one-second window per number. Inbound and outbound messages both count, as the notes say. */
export class Throughput {
  private readonly recent = new Map<string, number[]>();

  /** Whether one more message now would exceed `limit` (no limit: never). */
  full(phoneNumberId: string, limit: number | undefined, now = Date.now()): boolean {
    return limit !== undefined && this.window(phoneNumberId, now).length >= limit;
  }

  /** Counts one message; only messages that went through count, so refused sends do not hold slots. */
  take(phoneNumberId: string, now = Date.now()): void {
    this.window(phoneNumberId, now).push(now);
  }

  private window(phoneNumberId: string, now: number): number[] {
    let times = this.recent.get(phoneNumberId);
    if (!times) this.recent.set(phoneNumberId, (times = []));
    while (times.length > 0 && now - (times[0] as number) >= SECOND) times.shift();
    return times;
  }
}

/** Token bucket per (number, user): `burst` at once, then one more every `perMs`. */
export class PairLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limit: { burst: number; perMs: number } | undefined) {}

  tryTake(phoneNumberId: string, waId: string, now = Date.now()): boolean {
    if (!this.limit) return true;
    const key = `${phoneNumberId}:${waId}`;
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + (now - bucket.at) / this.limit.perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

/** The most arrivals inside any one-second span: what a throughput assertion compares with N. */
export function peakPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= SECOND) start++;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}
