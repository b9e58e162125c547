import { earliestRun } from '../earliest-run.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';
import { signPayload } from '../../domain/media/signed-media.js';
import type { Logger } from '../logger.js';
import { type Broker, type BrokerMessage, type BrokerName, brokerHeaders } from './broker.js';
import type { PendingEvent, PendingEvents } from './pending-events.js';

export interface EventStreamOptions {
  /** Events read, published and marked in one step. */
  batch: number;
  /** While another node holds a broker's lock and this one has announced work, it looks again this soon. */
  contendedMs: number;
  /** Nothing announced: one look this often, for what an announcement missed (a node that died mid-batch). */
  idleMs: number;
  /** After a broker refused part of a batch: its first pause, doubled up to `idleMs`. */
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
export function brokerMessage(event: PendingEvent, now: Date, links?: MediaLinks): BrokerMessage {
  // Its media links are signed as it leaves, like a webhook's (docs/media.md).
  const payload = links ? signPayload(event.payload, links) : event.payload;
  return {
    tenantId: event.tenantId,
    instanceId: event.instanceId,
    event: event.event,
    id: event.deliveryId,
    body: Buffer.from(payload, 'utf8'),
    headers: brokerHeaders(signedHeaders(event.secrets, event.deliveryId, event.event, payload, now)),
  };
}

/** Seconds the oldest event known to wait has waited (0 when none). */
export function backlogAgeSeconds(oldestWaiting: Date | null): number {
  return oldestWaiting ? Math.max(0, (Date.now() - oldestWaiting.getTime()) / 1000) : 0;
}

/** What the stream knows of one broker: whether it may publish now, and its backlog's age. */
interface BrokerState {
  broker: Broker;
  refusals: number;
  /** After a refusal, nothing is sent to it before this (ms since the epoch). */
  pausedUntil: number;
  /** The oldest event known to wait for it (backlog age); null once a pass found nothing left. */
  oldestWaiting: Date | null;
}

/**
 * Feeds the brokers from the outbox with one reader: a batch is read and signed once, each broker that is
 * up gets what waits for it in commit order, one down or paused is left out until it is back, and only
 * what a broker confirmed is marked (docs/architecture.md, "Event streams").
 */
export function createEventStream(deps: {
  brokers: readonly Broker[];
  pending: PendingEvents;
  logger: Logger;
  onPublished: (broker: BrokerName, count: number) => void;
  onFailed: (broker: BrokerName, count: number) => void;
  /** A broker went up or down, or what is known of its backlog changed. */
  onChange?: () => void;
  options?: EventStreamOptions;
  links?: MediaLinks;
}) {
  const { pending, options = EVENT_STREAM } = deps;
  const changed = deps.onChange ?? (() => {});
  const states = new Map<BrokerName, BrokerState>(deps.brokers.map((broker) => [broker.name, { broker, refusals: 0, pausedUntil: 0, oldestWaiting: null }]));
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  /** Passes that read the outbox (a pass knows better than the look at start). */
  let reads = 0;

  const publish = async (events: PendingEvent[], brokers: readonly BrokerName[]) => {
    const now = new Date();
    const messages = events.map((e) => brokerMessage(e, now, deps.links));
    const confirmed = new Map<BrokerName, number>();
    await Promise.all(
      brokers.map(async (name) => {
        const own = messages.filter((_, n) => events[n]!.streams.includes(name));
        const state = states.get(name)!;
        const first = events.find((e) => e.streams.includes(name));
        if (first) state.oldestWaiting = first.createdAt;
        confirmed.set(name, own.length ? await state.broker.publish(own) : 0);
      }),
    );
    return confirmed;
  };

  /** Publishes until nothing is left for the brokers that can take it (as far as it knows), or something stops it; says when to look again. */
  async function pass(): Promise<number | null> {
    for (;;) {
      again = false;
      const now = Date.now();
      const ready = [...states.values()].filter((s) => s.broker.isUp() && s.pausedUntil <= now);
      if (ready.length === 0) return resumeIn(now, ready);
      reads += 1;
      const outcome = await pending.batch(
        ready.map((s) => s.broker.name),
        options.batch,
        publish,
      );
      for (const [name, { events, published }] of outcome.brokers) {
        const state = states.get(name)!;
        if (published) deps.onPublished(name, published);
        if (published < events) {
          deps.onFailed(name, events - published);
          state.refusals += 1;
          state.pausedUntil = Date.now() + Math.min(options.idleMs, options.refusedMs * 2 ** (state.refusals - 1));
        } else {
          state.refusals = 0;
          // It took all it was given and nothing new was announced meanwhile: nothing waits for it.
          if (outcome.read < options.batch && !again) state.oldestWaiting = null;
        }
      }
      // A full batch: more is waiting, go on (a broker that just refused sits the next reads out).
      if (outcome.read === options.batch) continue;
      // Otherwise what arrived meanwhile is gathered first.
      let next = again ? options.gatherMs : options.idleMs;
      if (outcome.contended.length > 0) next = Math.min(next, options.contendedMs);
      return Math.min(next, resumeIn(Date.now(), ready) ?? next);
    }
  }

  /**
   * When a broker left out of a pass's reads may take events: at its pause's end, or at once if that came
   * during a pass that started a moment before (a timer fires up to a millisecond early); null: none waits.
   * Without it such a broker would wait for the idle look.
   */
  function resumeIn(now: number, read: readonly BrokerState[]): number | null {
    let soonest: number | null = null;
    for (const state of states.values()) {
      if (!state.broker.isUp() || (read.includes(state) && state.pausedUntil <= now)) continue;
      const wait = Math.max(0, state.pausedUntil - now);
      soonest = soonest === null ? wait : Math.min(soonest, wait);
    }
    return soonest;
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
        deps.logger.error({ err: error, brokers: [...states.keys()] }, 'event stream pass failed');
        return options.refusedMs;
      })
      .then((next) => {
        running = undefined;
        changed();
        if (again) plan(options.gatherMs);
        else if (next !== null) plan(next);
      });
  }

  for (const state of states.values()) {
    state.broker.onUp(() => {
      state.pausedUntil = 0;
      changed();
      plan(0);
    });
    state.broker.onDown(changed);
  }

  return {
    /** Each broker as `/readyz` and `/metrics` see it. */
    brokers: [...states.values()].map((state) => ({
      name: state.broker.name,
      isUp: () => state.broker.isUp(),
      oldestWaiting: () => state.oldestWaiting,
      /** Seconds the oldest event known to wait for this broker has waited (0 when none). */
      backlogAgeSeconds: () => backlogAgeSeconds(state.oldestWaiting),
    })),
    start() {
      stopped = false;
      for (const state of states.values()) state.broker.start();
      plan(0);
      // What waits from before a restart counts in the backlog's age even while the broker is still down.
      for (const state of states.values()) {
        void pending.oldest(state.broker.name).then(
          (at) => {
            if (at && reads === 0) state.oldestWaiting = state.oldestWaiting && state.oldestWaiting < at ? state.oldestWaiting : at;
            changed();
          },
          (error: unknown) => deps.logger.warn({ err: error, broker: state.broker.name }, 'event stream backlog could not be read'),
        );
      }
    },
    /** Events were committed on this node (at `at`): publish them now. */
    committed(at: Date) {
      for (const state of states.values()) state.oldestWaiting ??= at;
      changed();
      if (running) again = true;
      else plan(options.gatherMs);
    },
    async stop() {
      stopped = true;
      scheduled.cancel();
      await running;
      await Promise.all([...states.values()].map((s) => s.broker.close()));
    },
  };
}
