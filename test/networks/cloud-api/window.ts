// The 24-hour customer service window (the API's reference): opened and reset only by a message from the user,
// never by a template the business sends. Outside it only templates go out.

export class ServiceWindows {
  private readonly lastInbound = new Map<string, number>();

  constructor(private readonly lengthMs: number) {}

  private key(phoneNumberId: string, waId: string) {
    return `${phoneNumberId}:${waId}`;
  }

  /** A user message at `at` (re)starts the timer. */
  open(phoneNumberId: string, waId: string, at = Date.now()): void {
    this.lastInbound.set(this.key(phoneNumberId, waId), at);
  }

  close(phoneNumberId: string, waId: string): void {
    this.lastInbound.delete(this.key(phoneNumberId, waId));
  }

  isOpen(phoneNumberId: string, waId: string, now = Date.now()): boolean {
    const last = this.lastInbound.get(this.key(phoneNumberId, waId));
    return last !== undefined && now - last < this.lengthMs;
  }

  /** When the window closes, or undefined when it is not open. */
  closesAt(phoneNumberId: string, waId: string, now = Date.now()): number | undefined {
    const last = this.lastInbound.get(this.key(phoneNumberId, waId));
    return last !== undefined && now - last < this.lengthMs ? last + this.lengthMs : undefined;
  }
}
