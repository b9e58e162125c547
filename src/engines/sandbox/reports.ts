import type { EngineEvents } from '../../domain/network/engine.port.js';
import { LeaseLost } from '../../domain/ownership/lease.js';
import { Conflict, NotFound } from '../../domain/errors.js';
import { untilStored } from '../../domain/retry.js';
import type { Owners } from '../descriptor.js';

/**
 * How the simulated network reports, for its engine and its world: what it reports on its own is
 * retried until the gateway stores it (an outage delays it, never drops it); a report refused for good
 * (deleted meanwhile, lease moved, instance moved on) is dropped.
 */
export function createSandboxReports(onRetry?: (error: unknown) => void) {
  let handlers: EngineEvents | undefined;
  /** Tells an instance's owner that its connection changed (it may be another node). */
  let owners: Owners = { tell: () => {} };
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  return {
    connect(events: EngineEvents, to: Owners) {
      handlers = events;
      owners = to;
    },
    /** The domain's handlers (wired before the gateway serves). */
    get events(): EngineEvents {
      return handlers!;
    },
    tellOwner: (instanceId: string) => owners.tell(instanceId),
    get stopped() {
      return stopped;
    },
    onRetry,
    /** Reports `work` after `ms`, until stored. */
    later(ms: number, work: () => Promise<unknown>) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        untilStored(work, { stopped: () => stopped, onRetry }).catch(() => {});
      }, ms);
      timers.add(timer);
    },
    /** Reports until stored; false when the report was refused for good (the instance moved on, the lease went). */
    async once(work: () => Promise<unknown>): Promise<boolean> {
      try {
        await untilStored(work, { stopped: () => stopped, onRetry });
        return true;
      } catch (error) {
        if (error instanceof Conflict || error instanceof LeaseLost || error instanceof NotFound) return false;
        throw error;
      }
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type SandboxReports = ReturnType<typeof createSandboxReports>;
