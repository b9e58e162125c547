import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { HISTORY_EVENTS } from '../../domain/events/catalogue.js';
import { IDEMPOTENCY_TTL_MS } from '../../domain/idempotency/idempotency.js';
import { sqlList } from './sql-list.js';
import type { Logger } from '../logger.js';
import type { Statements } from './statements.js';

/** How long each kind of record is kept, in milliseconds; null keeps it forever (RETENTION_*). */
export interface RetentionSettings {
  messages: number | null;
  deliveries: number | null;
  connections: number | null;
  /** Kept media (RETENTION_MEDIA); the messages' retention when not given. */
  media?: number | null;
}

/** Why a message's kept copy of its media was let go (docs/media.md). */
export type MediaRelease = 'retention' | 'deleted';

/** The tables a sweep deletes from, as `/metrics` labels them. */
export type RetainedTable = 'Message' | 'IdempotencyRecord' | 'SandboxMedia' | 'SandboxHandoff' | 'SandboxSignal' | 'WebhookDelivery' | 'OutboxEvent' | 'QrCode';

export interface RetentionObserver {
  deleted(table: RetainedTable, rows: number): void;
  swept(at: Date, seconds: number): void;
  /** Messages whose kept copy of their media was let go. */
  released?(reason: MediaRelease, messages: number): void;
}

/** What runs after each pass's rules: the media sweep (removes what no message holds), when media is kept. */
export interface AfterPass {
  sweep(): Promise<number>;
}

/** Rows per statement: each one holds its locks for a few milliseconds at most. */
const BATCH = 500;
/** Between passes while there is something to delete (a short retention sweeps more often). */
const MAX_INTERVAL_MS = 60_000;
/**
 * An outbox event every reader has had is kept this long (or as long as delivery logs, if that is
 * shorter): a short window to see what just happened, then the sweep's next pass takes it.
 */
const OUTBOX_GRACE_MS = 10 * 60_000;
/** Connection history (the catalogue's set, as an SQL list): kept as RETENTION_CONNECTIONS says. */
export const HISTORY_EVENTS_SQL = sqlList(HISTORY_EVENTS);

/** The smallest UUID v7 of a moment: every time-ordered id minted before it sorts below it. */
export function firstIdAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

interface Rule {
  table: RetainedTable;
  /** Selects the ids of up to $1 rows past their time; $2 is that time, and $3 its first v7 id when `byId`. */
  select: string;
  /** The table's ids are time-ordered (UUID v7): the primary key's range finds the old rows. */
  byId?: boolean;
  cutoff(now: number): number | null;
  /** Not deleted: the message lets its kept media go (its row stays). */
  releases?: MediaRelease;
}

/**
 * The bytes the messages a statement let go (its `gone`) held, due for the media sweep (docs/media.md):
 * DO UPDATE waits while a sweep holds the check, so one the sweep resolves as it commits is made again.
 */
const NOTED = `noted AS (INSERT INTO "MediaCheck" (sha256) SELECT DISTINCT "mediaSha256" FROM gone WHERE "mediaSha256" IS NOT NULL
  ON CONFLICT (sha256) DO UPDATE SET "dueAt" = LEAST("MediaCheck"."dueAt", EXCLUDED."dueAt"))`;

/**
 * One node at a time: a transaction-scoped lock, tried and never waited for. The statement deletes
 * nothing when another node holds it, and says so.
 */
const deleting = (rule: Rule) => `
WITH lock AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(hashtext('mgw.retention')::bigint) AS held),
gone AS (DELETE FROM "${rule.table}" WHERE id IN (${rule.select}) AND (SELECT held FROM lock) RETURNING ${rule.table === 'Message' ? '"mediaSha256"' : '1'})
${rule.table === 'Message' ? `, ${NOTED}` : ''}
SELECT (SELECT held FROM lock) AS held, (SELECT count(*) FROM gone)::int AS deleted`;

/**
 * A message past RETENTION_MEDIA (or deleted for everyone) keeps its record but not its kept copy: the
 * bytes are for the media sweep once no message holds them. One that failed keeps its reason.
 */
const RELEASED_ERROR = JSON.stringify({ code: 'media_expired', message: 'The kept copy of this media was removed (RETENTION_MEDIA, or the message was deleted for everyone).' });
const releasing = (rule: Rule) => `
WITH lock AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(hashtext('mgw.retention')::bigint) AS held),
released AS (SELECT id, "mediaSha256" FROM "Message" WHERE id IN (${rule.select}) AND (SELECT held FROM lock) FOR UPDATE),
gone AS (UPDATE "Message" m SET "mediaSha256" = NULL, "mediaState" = NULL, "mediaRetryAt" = NULL,
  "mediaError" = CASE WHEN m."mediaState" = 'failed' THEN m."mediaError" ELSE '${RELEASED_ERROR}'::jsonb END
  FROM released r WHERE m.id = r.id RETURNING r."mediaSha256"),
${NOTED}
SELECT (SELECT held FROM lock) AS held, (SELECT count(*) FROM gone)::int AS deleted`;

/** The media's retention: RETENTION_MEDIA, else the messages'. */
const mediaRetentionOf = (settings: RetentionSettings) => (settings.media === undefined ? settings.messages : settings.media);

/** How long an event every reader has had is kept: the grace, or the delivery logs' retention if shorter. */
const outboxGraceOf = (settings: RetentionSettings) => Math.min(OUTBOX_GRACE_MS, settings.deliveries ?? OUTBOX_GRACE_MS);

/**
 * The sweep's pace: every `busyMs` while passes find rows; an empty pass doubles the wait, up to
 * `idleMs`. Both are at most half the shortest retention, so nothing outlives its time by more than
 * half; a busy pass comes between once a second and once a minute.
 */
export function retentionPace(settings: RetentionSettings): { busyMs: number; idleMs: number } {
  // The outbox's grace is never longer than the delivery logs' retention, so it stands for both.
  const kept = [settings.messages, settings.connections, outboxGraceOf(settings), mediaRetentionOf(settings)].filter((ms): ms is number => ms !== null);
  const half = Math.floor(Math.min(...kept) / 2);
  const busyMs = Math.max(1000, Math.min(MAX_INTERVAL_MS, half));
  return { busyMs, idleMs: Math.max(busyMs, half) };
}

function rules(settings: RetentionSettings): Rule[] {
  const before = (retention: number | null) => (now: number) => (retention === null ? null : now - retention);
  const outboxGrace = outboxGraceOf(settings);
  const unread = `NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e.id AND d.status = 'pending')`;
  return [
    // A message not yet sent is kept whatever its age: the queue still needs it.
    {
      table: 'Message',
      cutoff: before(settings.messages),
      byId: true,
      select: `SELECT id FROM "Message" WHERE id < $3::uuid AND "createdAt" < $2 AND NOT (direction = 'out' AND status = 'queued') LIMIT $1`,
    },
    // An answer is replayed for a day; with a shorter message retention, only as long as its message.
    {
      table: 'IdempotencyRecord',
      cutoff: (now) => (settings.messages === null ? now : Math.min(now, now - settings.messages + IDEMPOTENCY_TTL_MS)),
      select: `SELECT id FROM "IdempotencyRecord" WHERE "expiresAt" < $2 LIMIT $1`,
    },
    { table: 'SandboxMedia', cutoff: before(settings.messages), select: `SELECT id FROM "SandboxMedia" WHERE "createdAt" < $2 LIMIT $1` },
    { table: 'SandboxHandoff', cutoff: before(settings.messages), select: `SELECT id FROM "SandboxHandoff" WHERE "handedAt" < $2 LIMIT $1` },
    { table: 'SandboxSignal', cutoff: before(settings.messages), select: `SELECT id FROM "SandboxSignal" WHERE at < $2 LIMIT $1` },
    // A delivery still to be made (pending) is kept, however long its receiver has been failing.
    {
      table: 'WebhookDelivery',
      cutoff: before(settings.deliveries),
      byId: true,
      select: `SELECT id FROM "WebhookDelivery" WHERE id < $3::uuid AND "createdAt" < $2 AND status <> 'pending' LIMIT $1`,
    },
    {
      table: 'OutboxEvent',
      cutoff: before(settings.connections),
      byId: true,
      select: `SELECT e.id FROM "OutboxEvent" e WHERE e.id < $3::uuid AND e."createdAt" < $2 AND e.event IN ${HISTORY_EVENTS_SQL} AND e.streams = '{}' AND ${unread} LIMIT $1`,
    },
    // Every other event goes once every reader has it: its webhook delivered or given up, every broker published it.
    {
      table: 'OutboxEvent',
      cutoff: (now) => now - outboxGrace,
      byId: true,
      select: `SELECT e.id FROM "OutboxEvent" e WHERE e.id < $3::uuid AND e."createdAt" < $2 AND e.event NOT IN ${HISTORY_EVENTS_SQL} AND e.streams = '{}' AND ${unread} LIMIT $1`,
    },
    // An event of a deleted instance, as soon as every broker has it (or it cannot be signed: written
    // in the moment of the delete, after its secrets were kept).
    {
      table: 'OutboxEvent',
      cutoff: (now) => now,
      select: `SELECT e.id FROM "OutboxEvent" e WHERE (e.streams = '{}' OR e.signing IS NULL) AND e."createdAt" < $2
               AND NOT EXISTS (SELECT 1 FROM "Instance" i WHERE i.id = e."instanceId") LIMIT $1`,
    },
    // A QR code is history once scanned or expired.
    { table: 'QrCode', cutoff: before(settings.connections), select: `SELECT id FROM "QrCode" WHERE LEAST("usedAt", "expiresAt") < $2 LIMIT $1` },
    // Kept media past its own retention, and that of messages deleted for everyone: the messages stay.
    {
      table: 'Message',
      releases: 'retention',
      cutoff: before(mediaRetentionOf(settings)),
      select: `SELECT id FROM "Message" WHERE "mediaState" IS NOT NULL AND "createdAt" < $2 LIMIT $1`,
    },
    {
      table: 'Message',
      releases: 'deleted',
      cutoff: (now) => now,
      select: `SELECT id FROM "Message" WHERE "mediaState" IS NOT NULL AND "deletedAt" IS NOT NULL AND "deletedAt" < $2 LIMIT $1`,
    },
  ];
}

export type Retention = ReturnType<typeof createRetention>;

/** Runs `pass` once after `ms`; the function it returns cancels it. */
export type PassTimer = (pass: () => void, ms: number) => () => void;

/** A timer that does not keep the process alive on its own. */
const unrefTimer: PassTimer = (pass, ms) => {
  const timeout = setTimeout(pass, ms);
  timeout.unref();
  return () => clearTimeout(timeout);
};

/**
 * Deletes what is past its retention (docs/operating.md, "Data over time"), in batches of a few
 * hundred rows, yielding to requests between them, on one node at a time. Statistics are counters
 * on the instance, so they keep their totals when records go.
 */
export function createRetention(deps: {
  statements: Statements;
  settings: RetentionSettings;
  observer: RetentionObserver;
  logger: Logger;
  /** The media sweep, run after the rules of each pass that holds the lock. */
  afterPass?: AfterPass;
  now?: () => number;
  /** Waits before each pass; tests pass their own to see the waits without living through them. */
  timer?: PassTimer;
}) {
  const now = deps.now ?? Date.now;
  const timer = deps.timer ?? unrefTimer;
  const all = rules(deps.settings);
  const { busyMs: intervalMs, idleMs: idleIntervalMs } = retentionPace(deps.settings);
  let waitMs = intervalMs;
  let cancel: (() => void) | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  /** One pass over every rule: how many rows it deleted, or null when another node holds the sweep. */
  async function pass(): Promise<number | null> {
    const started = performance.now();
    let total = 0;
    for (const rule of all) {
      const cutoff = rule.cutoff(now());
      if (cutoff === null) continue;
      const params = rule.byId ? [BATCH, new Date(cutoff), firstIdAt(cutoff)] : [BATCH, new Date(cutoff)];
      for (;;) {
        if (stopped) return total;
        const [result] = await deps.statements.run<{ held: boolean; deleted: number }>(rule.releases ? releasing(rule) : deleting(rule), params);
        if (!result?.held) return null;
        total += result.deleted;
        if (result.deleted && rule.releases) deps.observer.released?.(rule.releases, result.deleted);
        else if (result.deleted) deps.observer.deleted(rule.table, result.deleted);
        if (result.deleted < BATCH) break;
        await yieldToRequests();
      }
    }
    // Rows just deleted or released may have held the last reference to some bytes.
    if (deps.afterPass && !stopped) total += await deps.afterPass.sweep();
    deps.observer.swept(new Date(), (performance.now() - started) / 1000);
    return total;
  }

  function schedule() {
    if (stopped) return;
    cancel = timer(() => {
      running = pass()
        .then(
          // An idle gateway sweeps less and less often; anything deleted brings the pace back.
          (deleted) => void (waitMs = deleted === 0 ? Math.min(waitMs * 2, idleIntervalMs) : intervalMs),
          (error: unknown) => deps.logger.warn({ err: error }, 'retention sweep failed; trying again at the next pass'),
        )
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, waitMs);
  }

  return {
    intervalMs,
    /** One pass now: the rows it deleted, or null when another node was sweeping. */
    sweep: pass,
    start: schedule,
    async stop() {
      stopped = true;
      cancel?.();
      await running;
    },
  };
}
