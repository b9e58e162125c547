import { performance } from 'node:perf_hooks';

/** A new handshake waits while the event loop was busier than this over the last window. */
const BUSY_UTILIZATION = 0.6;
const BUSY_WINDOW_MS = 50;
/** Handshakes start at most this often, and while they wait because the loop is busy, it is looked at again this often. */
const RECHECK_MS = 20;

/**
 * Whether the event loop has been busy lately (its utilization over the last ~50 ms above 0.6). A
 * connection handshake is mostly CPU; starting more of them on a busy loop is what starves requests.
 */
export function eventLoopBusy(threshold = BUSY_UTILIZATION, windowMs = BUSY_WINDOW_MS): () => boolean {
  let since = performance.eventLoopUtilization();
  let busy = false;
  return () => {
    const now = performance.eventLoopUtilization();
    const window = performance.eventLoopUtilization(now, since);
    if (window.idle + window.active >= windowMs) {
      busy = window.utilization > threshold;
      since = now;
    }
    return busy;
  };
}

/**
 * Bounds the handshakes in flight on this node, and starts none while the event loop is busy: a start
 * or takeover of many instances reaches the network as a trickle, and requests keep their share.
 */
export class HandshakeGate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private recheck: NodeJS.Timeout | undefined;
  private lastStartAt = -Infinity;

  constructor(
    private readonly max: number,
    private readonly busy: () => boolean = eventLoopBusy(),
  ) {}

  /** Waits for a slot; the answer gives it back (once, however often it is called). */
  async acquire(): Promise<() => void> {
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.admit();
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.admit();
    };
  }

  /**
   * Lets waiting handshakes in, first come first served, while there are slots and the loop has time;
   * one is always let in when none is in flight, so a loop kept busy by requests still connects.
   */
  private admit() {
    if (this.recheck || this.waiting.length === 0 || this.inFlight >= this.max) return;
    // Starts RECHECK_MS apart, so the loop's busyness shows the last one before the next is let in.
    if (this.inFlight > 0 && (performance.now() - this.lastStartAt < RECHECK_MS || this.busy())) return this.admitLater();
    this.inFlight++;
    this.lastStartAt = performance.now();
    this.waiting.shift()!();
    if (this.waiting.length > 0) this.admitLater();
  }

  private admitLater() {
    this.recheck = setTimeout(() => {
      this.recheck = undefined;
      this.admit();
    }, RECHECK_MS);
    this.recheck.unref();
  }

  get counts() {
    return { inFlight: this.inFlight, waiting: this.waiting.length };
  }
}
