// Waiting for a condition on the server's records without sleeping: every change to what the server records
// re-checks the pending conditions, so a test resumes as soon as it holds, however slow the machine.

export class Changes {
  private readonly listeners = new Set<() => void>();

  /** Called by whatever records something (a send, a delivery attempt, …). */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Resolves with `check()`'s first defined value; rejects after `timeoutMs` with what was last seen. */
  until<T>(check: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    const first = check();
    if (first !== undefined) return Promise.resolve(first);
    return new Promise<T>((resolve, reject) => {
      const listener = () => {
        const value = check();
        if (value === undefined) return;
        done();
        resolve(value);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`condition not met in ${timeoutMs} ms: ${describe()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
    });
  }
}
