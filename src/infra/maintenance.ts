import { earliestRun } from './earliest-run.js';
import type { DueTable, EmbeddedVacuum } from './db/embedded-vacuum.js';
import type { Statements } from './db/statements.js';
import type { Logger } from './logger.js';

/** Is anything waiting: outbound messages still queued, webhook deliveries still pending. One cheap statement (both are indexed). */
const PROBE = `
SELECT EXISTS (SELECT 1 FROM "Message" WHERE status = 'queued' AND direction = 'out') AS queued,
       EXISTS (SELECT 1 FROM "WebhookDelivery" WHERE status = 'pending') AS deliveries`;

interface Probed {
  queued: boolean;
  deliveries: boolean;
  /** Embedded only: the tables the database's upkeep is due for. */
  due?: DueTable[];
}

export interface MaintenanceOptions {
  /** Between sweeps while this node has messages it can move. */
  busyMs: number;
  /** Between looks otherwise: a lost announcement waits at most this long. */
  idleMs: number;
  /** Between re-schedulings of pending webhook deliveries (they may have been lost with Redis). */
  deliverySweepMs: number;
  /** Embedded: between two vacuums of one table. */
  vacuumNapMs: number;
}

export const MAINTENANCE: MaintenanceOptions = { busyMs: 500, idleMs: 30_000, deliverySweepMs: 10_000, vacuumNapMs: 30_000 };

export type Maintenance = ReturnType<typeof createMaintenance>;

/**
 * Safety sweeps for what an announcement missed (a lost notification, a failed dispatch, a day-old queued
 * message, deliveries Redis forgot): every `busyMs` while they find work, else every `idleMs`. Embedded,
 * the same look says which tables are due for the vacuum PGlite does not run.
 */
export function createMaintenance(deps: {
  statements: Statements;
  sweepDeliveries: () => Promise<void>;
  logger: Logger;
  options?: MaintenanceOptions;
  /** The embedded database's stand-in for autovacuum, told by the same probe what is due. */
  vacuum?: EmbeddedVacuum;
}) {
  const options = deps.options ?? MAINTENANCE;
  const probe = deps.vacuum ? `${PROBE}, ${deps.vacuum.dueColumn} AS due` : PROBE;
  let running: Promise<void> | undefined;
  let stopped = true;
  let lastDeliverySweep = Date.now();
  /** The domain's sweeps over queued messages (route, resume, fail the stale ones): whether it found messages to move. */
  let sweepMessages: () => Promise<boolean> = async () => false;
  /** The kept media's sweep (retries, and what a crash left pending): whether it found media to keep. */
  let sweepMedia: () => Promise<boolean> = async () => false;

  async function pass(): Promise<boolean> {
    const [found] = await deps.statements.run<Probed>(probe);
    const moving = found?.queued ? await sweepMessages() : false;
    const keeping = await sweepMedia();
    if (found?.deliveries && Date.now() - lastDeliverySweep >= options.deliverySweepMs) {
      lastDeliverySweep = Date.now();
      await deps.sweepDeliveries();
    }
    if (found?.due?.length) await deps.vacuum!.run(found.due);
    return moving || keeping;
  }

  const scheduled = earliestRun(run);
  /** The next pass in `ms` (or sooner, if one is already planned sooner). */
  const plan = (ms: number) => {
    if (!stopped) scheduled.plan(ms);
  };

  function run() {
    if (running || stopped) return;
    running = pass()
      .then(
        (busy) => busy,
        (error: unknown) => {
          deps.logger.error({ err: error }, 'maintenance sweep failed');
          return true;
        },
      )
      .then((busy) => {
        running = undefined;
        plan(busy ? options.busyMs : options.idleMs);
      });
  }

  return {
    /** Starts looking, with the domain's sweeps over queued messages and over media to keep. */
    start(sweep: () => Promise<boolean>, sweepKept?: () => Promise<boolean>) {
      sweepMessages = sweep;
      if (sweepKept) sweepMedia = sweepKept;
      stopped = false;
      plan(options.busyMs);
    },
    /** How long until the next pass (Infinity while one runs, or once stopped). */
    plannedInMs: () => scheduled.dueInMs(),
    /** Work arrived on this node: look soon, and keep looking often while it waits. */
    wake() {
      plan(options.busyMs);
    },
    async stop() {
      stopped = true;
      scheduled.cancel();
      await running;
    },
  };
}
