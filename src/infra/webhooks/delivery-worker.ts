import pLimit, { type LimitFunction } from 'p-limit';
import { isDelivered, nextAttemptAfterFailure } from '../../domain/webhooks/retry-policy.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import type { MediaLinks } from '../../domain/media/media-links.port.js';
import { signPayload } from '../../domain/media/signed-media.js';
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
 * Sends due webhook deliveries: each attempt takes a database lease first (one node), is recorded, and a
 * failure is rescheduled by WEBHOOK_RETRY_DELAYS; a crash loses nothing. Deliveries of one order key
 * leave one at a time, in order (docs/architecture.md, "The message path").
 */
export function createDeliveryWorker(deps: {
  prisma: PrismaClient;
  schedule: DeliverySchedule;
  http: OutboundHttp;
  logger: Logger;
  /** Signs the media links of each body as it leaves, so a retry carries a fresh one (docs/media.md). */
  links?: MediaLinks;
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
    orderKey: string | null;
    number: number;
    startedAt: Date;
    statusCode: number | undefined;
    error: string | undefined;
    durationMs: number;
    next: Date | null;
  }

  /**
   * The claimed deliveries that must wait: an earlier delivery with their order key (an earlier event,
   * by the outbox's commit order) is still pending.
   */
  async function waiting(ids: string[]): Promise<Set<string>> {
    const rows = await prisma.$queryRaw<Array<{ id: string }>>`
      SELECT d.id::text AS id FROM "WebhookDelivery" d JOIN "OutboxEvent" o ON o.id = d."eventId"
      WHERE d.id = ANY(${ids}::uuid[]) AND d."orderKey" IS NOT NULL AND EXISTS (
        SELECT 1 FROM "WebhookDelivery" p JOIN "OutboxEvent" po ON po.id = p."eventId"
        WHERE p."orderKey" = d."orderKey" AND p.status = 'pending' AND p.id <> d.id AND po.seq < o.seq)`;
    return new Set(rows.map((row) => row.id));
  }

  /** Once deliveries with these keys are done, the next of each key goes on the schedule. */
  async function releaseNext(keys: string[]) {
    if (keys.length === 0) return;
    const next = await prisma.$queryRaw<Array<{ id: string; nextAttemptAt: Date | null }>>`
      SELECT DISTINCT ON (d."orderKey") d.id::text AS id, d."nextAttemptAt"
      FROM "WebhookDelivery" d JOIN "OutboxEvent" o ON o.id = d."eventId"
      WHERE d."orderKey" = ANY(${keys}::text[]) AND d.status = 'pending'
      ORDER BY d."orderKey", o.seq`;
    if (next.length === 0) return;
    const now = Date.now();
    await schedule.add(next.map((d) => ({ id: d.id, at: new Date(Math.max(now, d.nextAttemptAt?.getTime() ?? now)) })));
    pollAgain(Math.min(...next.map((d) => Math.max(now, d.nextAttemptAt?.getTime() ?? now))));
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
    // What waited behind the deliveries now done goes next (if this fails, the sweep puts it back within 10 s).
    await releaseNext([...new Set(batch.filter((o) => !o.next && o.orderKey !== null).map((o) => o.orderKey!))]).catch((error: unknown) =>
      logger.warn({ err: error }, 'webhook deliveries waiting for an earlier one could not be scheduled; the sweep will'),
    );
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
      const body = deps.links ? signPayload(delivery.payload, deps.links) : delivery.payload;
      const answer = await http.send('POST', delivery.url, {
        headers: signedHeaders(delivery.instance, delivery.id, delivery.event, body, new Date()),
        body,
        maxBytes: 1024,
      });
      statusCode = answer.statusCode;
      if (!isDelivered(statusCode)) error = `HTTP ${statusCode}`;
    } catch (failure) {
      error = describeFailure(failure, options.timeoutMs, delivery.url);
    }
    const durationMs = Math.round(performance.now() - started);
    const next = error ? nextAttemptAfterFailure(number, options.retryDelaysSeconds, new Date()) : null;
    record({ id: delivery.id, orderKey: delivery.orderKey, number, startedAt: now, statusCode, error, durationMs, next });
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
        // One that waits for an earlier delivery leaves the schedule; that one's outcome puts it back.
        const blocked = await waiting(claimed.ids);
        const free = blocked.size ? claimed.ids.filter((id) => !blocked.has(id)) : claimed.ids;
        if (free.length) for (const delivery of await lease(free, now)) run(delivery, now);
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
