/**
 * A bound on connection handshakes in flight on this node. A node starting (or taking over) many
 * paired instances opens their connections through it, so the network sees a steady trickle instead
 * of a burst, and the event loop keeps time for requests. A slot is held from the socket's creation
 * until it is open or closed.
 */
export class HandshakeGate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  /** Waits for a slot; the answer gives it back (once, however often it is called). */
  async acquire(): Promise<() => void> {
    if (this.inFlight < this.max) this.inFlight++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next in line: the count stays as it is.
      if (next) next();
      else this.inFlight--;
    };
  }

  get counts() {
    return { inFlight: this.inFlight, waiting: this.waiting.length };
  }
}
