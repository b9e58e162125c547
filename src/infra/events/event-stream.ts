import { earliestRun } from '../earliest-run.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import type { Logger } from '../logger.js';
import { type Broker, type BrokerMessage, brokerHeaders } from './broker.js';
import type { PendingEvent, PendingEvents } from './pending-events.js';

export interface EventStreamOptions {
  /** Events read, published and marked in one step. */
  batch: number;
  /** While another node holds the broker's lock and this one has announced work, it looks again this soon. */
  contendedMs: number;
  /** Nothing announced: one look this often, for what an announcement missed (a node that died mid-batch). */
  idleMs: number;
  /** After the broker refused part of a batch: the first pause, doubled up to `idleMs`. */
  refusedMs: number;
  /**
   * Events announced are published this long after the first announcement, with whatever else
   * arrived meanwhile: under load a batch carries many events instead of one statement set each.
   */
  gatherMs: number;
}

export const EVENT_STREAM: EventStreamOptions = { batch: 500, contendedMs: 500, idleMs: 30_000, refusedMs: 1000, gatherMs: 100 };

export type EventStream = ReturnType<typeof createEventStream>;

/** The message a broker carries for an outbox event: its exact webhook body, signed now as its webhook would be. */
export function brokerMessage(event: PendingEvent, now: Date): BrokerMessage {
  return {
    tenantId: event.tenantId,
    instanceId: event.instanceId,
    event: event.event,
    id: event.deliveryId,
    body: Buffer.from(event.payload, 'utf8'),
    headers: brokerHeaders(signedHeaders(event.secrets, event.deliveryId, event.event, event.payload, now)),
  };
}

/**
 * Feeds one broker from the outbox. It works only when told: events committed on this node, the
 * broker coming back, and one idle look every `idleMs`; while the broker is down it reads nothing
 * (the broker's own reconnection wakes it). A batch the broker confirmed is marked published; the
 * rest stays in the outbox and goes out, in order, on the next pass.
 */
export function createEventStream(deps: {
  broker: Broker;
  pending: PendingEvents;
  logger: Logger;
  onPublished: (count: number) => void;
  onFailed: (count: number) => void;
  options?: EventStreamOptions;
}) {
  const { broker, pending, options = EVENT_STREAM } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  let refusals = 0;
  /** The oldest event known to wait (backlog age); null once a pass found nothing left. */
  let oldestWaiting: Date | null = null;
  /** Passes that read the outbox (a pass knows better than the look at start). */
  let reads = 0;

  /** Publishes until the outbox is empty for this broker (as far as it knows), or something stops it; says when to look again. */
  async function pass(): Promise<number | null> {
    for (;;) {
      again = false;
      if (!broker.isUp()) return null;
      reads += 1;
      const outcome = await pending.batch(broker.name, options.batch, async (events) => {
        oldestWaiting = events[0]!.createdAt;
        const now = new Date();
        const published = await broker.publish(events.map((e) => brokerMessage(e, now)));
        if (published) deps.onPublished(published);
        if (published < events.length) deps.onFailed(events.length - published);
        return published;
      });
      if (outcome.locked) return options.contendedMs;
      if (outcome.published < outcome.read) {
        refusals += 1;
        return Math.min(options.idleMs, options.refusedMs * 2 ** (refusals - 1));
      }
      refusals = 0;
      // A full batch: more is waiting, go on. Otherwise what arrived meanwhile is gathered first.
      if (outcome.read < options.batch) {
        if (!again) oldestWaiting = null;
        return again ? options.gatherMs : options.idleMs;
      }
    }
  }

  const scheduled = earliestRun(run);
  const plan = (ms: number) => {
    if (!stopped) scheduled.plan(ms);
  };

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => {
        deps.logger.error({ err: error, broker: broker.name }, 'event stream pass failed');
        return options.refusedMs;
      })
      .then((next) => {
        running = undefined;
        if (again) plan(options.gatherMs);
        else if (next !== null) plan(next);
      });
  }

  broker.onUp(() => plan(0));

  return {
    name: broker.name,
    isUp: () => broker.isUp(),
    start() {
      stopped = false;
      broker.start();
      plan(0);
      // What waits from before a restart counts in the backlog's age even while the broker is still down.
      void pending.oldest(broker.name).then(
        (at) => {
          if (at && reads === 0) oldestWaiting = oldestWaiting && oldestWaiting < at ? oldestWaiting : at;
        },
        (error: unknown) => deps.logger.warn({ err: error, broker: broker.name }, 'event stream backlog could not be read'),
      );
    },
    /** Events were committed on this node (at `at`): publish them now. */
    committed(at: Date) {
      oldestWaiting ??= at;
      if (running) again = true;
      else plan(options.gatherMs);
    },
    /** Seconds the oldest event known to wait for this broker has waited (0 when none). */
    backlogAgeSeconds: () => (oldestWaiting ? Math.max(0, (Date.now() - oldestWaiting.getTime()) / 1000) : 0),
    async stop() {
      stopped = true;
      scheduled.cancel();
      await running;
      await broker.close();
    },
    /** Waits until a pass running now is over (tests, benchmarks). */
    async settled() {
      while (running) await running;
    },
  };
}
