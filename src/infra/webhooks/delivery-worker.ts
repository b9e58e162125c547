import pLimit, { type LimitFunction } from 'p-limit';
import { isDelivered, nextAttemptAfterFailure } from '../../domain/webhooks/retry-policy.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import type { PrismaClient } from '../db/database.js';
import type { Logger } from '../logger.js';
import { describeFailure, type OutboundHttp } from '../outbound-http.js';
import type { DeliverySchedule } from './schedule.js';
import { newRowId } from '../db/row-id.js';
import { isForeignKeyViolation } from '../db/prisma-errors.js';

export interface DeliveryWorkerOptions {
  retryDelaysSeconds: readonly number[];
  timeoutMs: number;
  /** Attempts in flight to one receiver (origin) at once, so a slow one cannot starve the rest. */
  perEndpoint: number;
  /** Attempts in flight in this process. */
  total: number;
  /**
   * The longest the worker sleeps before looking at the schedule again when nothing woke it: it wakes
   * for the next delivery it knows is due, for new ones this node writes, and at least this often
   * for what other nodes scheduled.
   */
  idlePollMs: number;
}

const CLAIM_BATCH = 500;

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

/**
 * Sends webhook deliveries when they are due. Each attempt first takes a lease in the database
 * (only one node can), so an entry scheduled twice is still attempted once; every attempt is
 * recorded; a failure is rescheduled by WEBHOOK_RETRY_DELAYS, and after the last one the delivery
 * is failed. A crash loses nothing: the sweep puts pending deliveries back on the schedule.
 */
export function createDeliveryWorker(deps: {
  prisma: PrismaClient;
  schedule: DeliverySchedule;
  http: OutboundHttp;
  logger: Logger;
  /** Told the outcome of every attempt (metrics). */
  onAttempt?: (outcome: 'delivered' | 'retry' | 'failed') => void;
  options: DeliveryWorkerOptions;
}) {
  const { prisma, schedule, http, logger, options } = deps;
  const total = pLimit(options.total);
  const perEndpoint = new Map<string, LimitFunction>();
  const inFlight = new Set<Promise<void>>();
  let pumping: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  /** The next look at the schedule, and when it is due. */
  let pollTimer: NodeJS.Timeout | undefined;
  let pollAt = Infinity;
  // A lease outlives any attempt (the timeout, and time to record the answer); if its node dies
  // mid-attempt, the delivery is tried again once the lease has run out.
  const leaseMs = options.timeoutMs * 2 + 5_000;

  const endpoint = (origin: string) => {
    let limit = perEndpoint.get(origin);
    if (!limit) perEndpoint.set(origin, (limit = pLimit(options.perEndpoint)));
    return limit;
  };

  type Leased = Awaited<ReturnType<typeof lease>>[number];
  interface Outcome {
    id: string;
    number: number;
    startedAt: Date;
    statusCode: number | undefined;
    error: string | undefined;
    durationMs: number;
    next: Date | null;
  }

  /** One statement takes the lease on every claimed delivery still due; the others are held elsewhere or done. */
  function lease(ids: string[], now: Date) {
    return prisma.webhookDelivery.updateManyAndReturn({
      where: { id: { in: ids }, status: 'pending', nextAttemptAt: { lte: now } },
      data: { attemptCount: { increment: 1 }, nextAttemptAt: new Date(now.getTime() + leaseMs) },
      include: { instance: { select: { webhookSecret: true, previousWebhookSecret: true, webhookSecretRotatedAt: true } } },
    });
  }

  // Outcomes are written in batches: one transaction records many attempts.
  let outcomes: Outcome[] = [];
  let flushing: Promise<void> | undefined;
  let flushTimer: NodeJS.Timeout | undefined;

  async function flush() {
    const batch = outcomes;
    outcomes = [];
    if (batch.length === 0) return;
    const delivered = batch.filter((o) => !o.error).map((o) => o.id);
    const exhausted = batch.filter((o) => o.error && !o.next).map((o) => o.id);
    const retried = batch.filter((o) => o.next);
    const attempts = JSON.stringify(
      batch.map((o) => ({ id: newRowId(), deliveryId: o.id, number: o.number, startedAt: o.startedAt, statusCode: o.statusCode, error: o.error, durationMs: o.durationMs })),
    );
    const write = () =>
      prisma.$transaction([
        // Only for deliveries that still exist: an instance deleted while its webhook was being called takes them.
        prisma.$executeRaw`
          INSERT INTO "WebhookAttempt" (id, "deliveryId", number, "startedAt", "statusCode", error, "durationMs")
          SELECT a.id, a."deliveryId", a.number, a."startedAt", a."statusCode", a.error, a."durationMs"
          FROM jsonb_to_recordset(${attempts}::jsonb) AS a(id uuid, "deliveryId" uuid, number int, "startedAt" timestamptz, "statusCode" int, error text, "durationMs" int)
          JOIN "WebhookDelivery" d ON d.id = a."deliveryId"
          ON CONFLICT ("deliveryId", number) DO NOTHING`,
        prisma.webhookDelivery.updateMany({ where: { id: { in: delivered } }, data: { status: 'delivered', nextAttemptAt: null } }),
        prisma.webhookDelivery.updateMany({ where: { id: { in: exhausted } }, data: { status: 'failed', nextAttemptAt: null } }),
        ...retried.map((o) => prisma.webhookDelivery.updateMany({ where: { id: o.id }, data: { nextAttemptAt: o.next } })),
      ]);
    try {
      await write();
    } catch (error) {
      // A delivery deleted between the join and the insert (its instance deleted meanwhile): once more, without it.
      if (!isForeignKeyViolation(error)) throw error;
      await write();
    }
    if (retried.length) {
      await schedule.add(retried.map((o) => ({ id: o.id, at: o.next! })));
      pollAgain(Math.min(...retried.map((o) => o.next!.getTime())));
    }
  }

  function record(outcome: Outcome) {
    outcomes.push(outcome);
    deps.onAttempt?.(!outcome.error ? 'delivered' : outcome.next ? 'retry' : 'failed');
    if (outcome.error) logger.debug({ deliveryId: outcome.id, attempt: outcome.number, error: outcome.error, next: outcome.next }, 'webhook attempt failed');
    if (outcomes.length >= 200) void flushNow();
    else flushTimer ??= setTimeout(() => void flushNow(), 10);
  }

  function flushNow(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const run = (flushing ?? Promise.resolve()).then(flush).catch((error: unknown) => logger.error({ err: error }, 'webhook attempts could not be recorded'));
    const tracked: Promise<void> = run.finally(() => {
      if (flushing === tracked) flushing = undefined;
    });
    flushing = tracked;
    return tracked;
  }

  async function attempt(delivery: Leased, now: Date) {
    const number = delivery.attemptCount;
    const started = performance.now();
    let statusCode: number | undefined;
    let error: string | undefined;
    try {
      const answer = await http.send('POST', delivery.url, {
        headers: signedHeaders(delivery.instance, delivery.id, delivery.event, delivery.payload, new Date()),
        body: delivery.payload,
        maxBytes: 1024,
      });
      statusCode = answer.statusCode;
      if (!isDelivered(statusCode)) error = `HTTP ${statusCode}`;
    } catch (failure) {
      error = describeFailure(failure, options.timeoutMs, delivery.url);
    }
    const durationMs = Math.round(performance.now() - started);
    const next = error ? nextAttemptAfterFailure(number, options.retryDelaysSeconds, new Date()) : null;
    record({ id: delivery.id, number, startedAt: now, statusCode, error, durationMs, next });
  }

  function run(delivery: Leased, now: Date) {
    const origin = new URL(delivery.url).origin;
    const job = total(() => endpoint(origin)(() => attempt(delivery, now)))
      .catch((error: unknown) => logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt failed unexpectedly'))
      .finally(() => {
        inFlight.delete(job);
        // Receivers come and go; an idle limiter is dropped so the map does not grow for ever.
        const limit = perEndpoint.get(origin);
        if (limit && limit.activeCount === 0 && limit.pendingCount === 0) perEndpoint.delete(origin);
      });
    inFlight.add(job);
  }

  async function pump() {
    let nextDueAt: number | null = null;
    do {
      again = false;
      for (;;) {
        const now = new Date();
        const claimed = await schedule.claimDue(now, CLAIM_BATCH);
        nextDueAt = claimed.nextDueAt;
        if (claimed.ids.length === 0) break;
        for (const delivery of await lease(claimed.ids, now)) run(delivery, now);
      }
    } while (again && !stopped);
    pollAgain(nextDueAt === null ? Date.now() + options.idlePollMs : Math.min(nextDueAt, Date.now() + options.idlePollMs));
  }

  /** Looks at the schedule again at `at` (or sooner, if already planned sooner). */
  function pollAgain(at: number) {
    if (stopped || at >= pollAt) return;
    clearTimeout(pollTimer);
    pollAt = at;
    pollTimer = setTimeout(() => {
      pollAt = Infinity;
      wake();
    }, Math.max(0, at - Date.now()));
    pollTimer.unref();
  }

  function wake() {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump()
      .catch((error: unknown) => {
        logger.error({ err: error }, 'webhook schedule could not be read');
        pollAgain(Date.now() + options.idlePollMs);
      })
      .finally(() => (pumping = undefined));
  }

  /** Puts every pending delivery back on the schedule (at start, and now and then). */
  async function sweep() {
    const pending = await prisma.webhookDelivery.findMany({
      where: { status: 'pending' },
      select: { id: true, nextAttemptAt: true },
    });
    await schedule.add(
      pending.map((d) => ({ id: d.id, at: d.nextAttemptAt ?? new Date() })),
      true,
    );
    wake();
  }

  return {
    /** New deliveries from the outbox: schedule them, and try at once what is due. */
    async scheduled(due: { id: string; at: Date }[]) {
      await schedule.add(due);
      wake();
    },
    async start() {
      await sweep();
    },
    /** Puts every pending delivery back on the schedule (the maintenance loop calls it while some are pending). */
    sweep,
    /** Stops taking work and waits for attempts in flight. */
    async stop() {
      stopped = true;
      clearTimeout(pollTimer);
      await pumping;
      await Promise.allSettled([...inFlight]);
      await flushNow();
    },
    /** Waits until nothing is being attempted or recorded (tests, benchmarks). */
    async idle() {
      while (pumping || inFlight.size || outcomes.length || flushing) {
        await pumping;
        await Promise.allSettled([...inFlight]);
        await flushNow();
      }
    },
  };
}
