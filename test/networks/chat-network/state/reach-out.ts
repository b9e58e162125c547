/** The network's limit on first messages to new contacts: at most `count` per account in any `windowMs`. */
export interface ReachOutCap {
  count: number;
  windowMs: number;
}

/** An account's reach-out timelock: no first message to a new contact until `until`. */
export interface Timelock {
  until: Date;
  reason: string;
}

/**
 * How the network keeps accounts from writing to too many strangers (the real one answers 463 and
 * locks the account for a while). Two phones that exchanged a message know each other from then on;
 * every first message an account's devices write to someone else counts against its cap.
 */
export class ReachOut {
  cap: ReachOutCap | null = null;
  private readonly known = new Map<string, Set<string>>();
  /** Each account's first messages to new contacts: when they arrived. */
  readonly firsts = new Map<string, Date[]>();
  readonly timelocks = new Map<string, Timelock>();

  exchanged(a: string, b: string): void {
    this.knownTo(a).add(b);
    this.knownTo(b).add(a);
  }

  knows(a: string, b: string): boolean {
    return this.known.get(a)?.has(b) ?? false;
  }

  /** The timelock in force for `phone` at `now`, if any. */
  timelockOf(phone: string, now = new Date()): Timelock | undefined {
    const lock = this.timelocks.get(phone);
    if (lock && lock.until <= now) this.timelocks.delete(phone);
    return lock && lock.until > now ? lock : undefined;
  }

  /** First messages of `phone` inside the cap's window ending `now`. */
  used(phone: string, now = new Date()): Date[] {
    const since = now.getTime() - (this.cap?.windowMs ?? 0);
    return (this.firsts.get(phone) ?? []).filter((at) => at.getTime() > since);
  }

  /**
   * Whether the network takes a message from `from`'s device to `to`: a known contact always; a new
   * one unless the account is timelocked or its cap is used up (which timelocks it until the window frees).
   * A taken first message counts, and makes the two known.
   */
  admits(from: string, to: string, now = new Date()): boolean {
    if (from === to || this.knows(from, to)) return true;
    if (this.timelockOf(from, now)) return false;
    const used = this.used(from, now);
    if (this.cap && used.length >= this.cap.count) {
      this.timelocks.set(from, { until: new Date(used[0]!.getTime() + this.cap.windowMs), reason: 'reach_out_cap' });
      return false;
    }
    this.firsts.set(from, [...used, now]);
    this.exchanged(from, to);
    return true;
  }

  private knownTo(phone: string): Set<string> {
    let set = this.known.get(phone);
    if (!set) this.known.set(phone, (set = new Set()));
    return set;
  }
}
