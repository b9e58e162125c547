import type { MediaStore } from '../../domain/media/media-store.port.js';
import type { Logger } from '../logger.js';
import type { Statements } from '../db/statements.js';

/** Blobs per transaction: each one's row stays locked while its object is removed. */
const BATCH = 100;
/** Blobs each sweep looks at in turn, whether or not anything noted them: what no path noted is found too. */
const SCAN = 1000;
/** Objects removed at once within a batch. */
const PARALLEL = 8;
/**
 * A blob kept (or kept again) this recently is left alone even when no message names it yet: the
 * message's own update may not be committed (docs/media.md, "Removing objects").
 */
export const MEDIA_SWEEP_GRACE_MS = 10 * 60_000;

export interface MediaSweepObserver {
  removed(objects: number, bytes: number): void;
}

export type MediaSweep = ReturnType<typeof createMediaSweep>;

/**
 * Removes the objects no message holds (docs/media.md): the object first, then its row, in
 * one transaction per batch. An object the store fails to remove keeps its row and is tried again at
 * the next sweep, so nothing leaks; a row is never deleted while a message names its bytes.
 */
export function createMediaSweep(deps: {
  statements: Statements;
  store: MediaStore;
  observer: MediaSweepObserver;
  logger: Logger;
  graceMs?: number;
  now?: () => number;
}) {
  const graceMs = deps.graceMs ?? MEDIA_SWEEP_GRACE_MS;
  const now = deps.now ?? Date.now;
  /** Where the next slice of blobs begins (by hash; back to the first after the last). */
  let scanFrom = '';

  /** Notes the unreferenced blobs of the next slice as due checks. */
  async function scan() {
    const [row] = await deps.statements.run<{ last: string | null }>(
      `WITH slice AS (SELECT sha256 FROM "MediaBlob" WHERE sha256 > $1 ORDER BY sha256 LIMIT $2),
       noted AS (INSERT INTO "MediaCheck" (sha256) SELECT s.sha256 FROM slice s WHERE NOT EXISTS (SELECT 1 FROM "Message" m WHERE m."mediaSha256" = s.sha256)
         ON CONFLICT (sha256) DO NOTHING)
       SELECT max(sha256) AS last FROM slice`,
      [scanFrom, SCAN],
    );
    scanFrom = row?.last ?? '';
  }

  /**
   * One batch of due checks, in one transaction: their blobs locked (one a keeper is holding again is
   * skipped and stays due), each object no message holds and past the grace removed, then its row.
   */
  async function batch(): Promise<{ found: number; removed: number }> {
    return deps.statements.transaction(async (run) => {
      const at = now();
      const due = (await run<{ sha256: string }>(`SELECT sha256 FROM "MediaCheck" WHERE "dueAt" <= $2 ORDER BY "dueAt" LIMIT $1 FOR UPDATE SKIP LOCKED`, [BATCH, new Date(at)])).map((row) => row.sha256);
      if (!due.length) return { found: 0, removed: 0 };
      const existing = new Set((await run<{ sha256: string }>(`SELECT sha256 FROM "MediaBlob" WHERE sha256 = ANY($1::text[])`, [due])).map((row) => row.sha256));
      const locked = (await run<{ sha256: string }>(`SELECT sha256 FROM "MediaBlob" WHERE sha256 = ANY($1::text[]) FOR UPDATE SKIP LOCKED`, [due])).map((row) => row.sha256);
      // Read after the lock, as committed now: nobody holds these bytes again until this commits.
      const blobs = await run<{ sha256: string; size: number; kept: Date; held: boolean }>(
        `SELECT b.sha256, b.size::float8 AS size, b."createdAt" AS kept, EXISTS (SELECT 1 FROM "Message" m WHERE m."mediaSha256" = b.sha256) AS held
         FROM "MediaBlob" b WHERE b.sha256 = ANY($1::text[])`,
        [locked],
      );
      const done = due.filter((sha256) => !existing.has(sha256));
      const later: Array<{ sha256: string; dueAt: Date }> = [];
      const removable: typeof blobs = [];
      for (const blob of blobs) {
        if (blob.held) done.push(blob.sha256);
        else if (blob.kept.getTime() > at - graceMs) later.push({ sha256: blob.sha256, dueAt: new Date(blob.kept.getTime() + graceMs) });
        else removable.push(blob);
      }
      const removed: string[] = [];
      let bytes = 0;
      for (let i = 0; i < removable.length; i += PARALLEL) {
        const slice = removable.slice(i, i + PARALLEL);
        const outcomes = await Promise.allSettled(slice.map((blob) => deps.store.remove(blob.sha256)));
        outcomes.forEach((outcome, j) => {
          const blob = slice[j]!;
          if (outcome.status === 'fulfilled') {
            removed.push(blob.sha256);
            bytes += blob.size;
          } else deps.logger.warn({ err: outcome.reason, sha256: blob.sha256 }, 'media store could not remove an object; trying again at the next sweep');
        });
      }
      if (removed.length) await run(`DELETE FROM "MediaBlob" WHERE sha256 = ANY($1::text[])`, [removed]);
      done.push(...removed);
      if (done.length) await run(`DELETE FROM "MediaCheck" WHERE sha256 = ANY($1::text[])`, [done]);
      // Kept again a moment ago: looked at once its grace is over (a keeper that never names it leaves it to go then).
      if (later.length)
        await run(`UPDATE "MediaCheck" c SET "dueAt" = l."dueAt" FROM unnest($1::text[], $2::timestamptz[]) AS l(sha256, "dueAt") WHERE c.sha256 = l.sha256`, [
          later.map((l) => l.sha256),
          later.map((l) => l.dueAt),
        ]);
      if (removed.length) deps.observer.removed(removed.length, bytes);
      return { found: due.length, removed: removed.length };
    });
  }

  return {
    /** Looks at every due check: how many objects went. */
    async sweep(): Promise<number> {
      await scan();
      let total = 0;
      for (;;) {
        const { found, removed } = await batch();
        total += removed;
        // A batch that removed nothing (its removes failed, or keepers hold its blobs) is not run again at once.
        if (found < BATCH || removed === 0) return total;
      }
    },
  };
}

/**
 * Records bytes a message is about to hold (docs/media.md, "Removing objects"): the blob's row,
 * its grace started again, a check due after it. False: a sweep removed the object since `put`; put again.
 */
export async function holdBlob(
  statements: Statements,
  store: MediaStore,
  blob: { sha256: string; size: number; mimetype: string },
  graceMs = MEDIA_SWEEP_GRACE_MS,
): Promise<boolean> {
  const [row] = await statements.run<{ inserted: boolean }>(
    `WITH blob AS (
       INSERT INTO "MediaBlob" (sha256, size, mimetype) VALUES ($1, $2, $3)
       ON CONFLICT (sha256) DO UPDATE SET "createdAt" = now() RETURNING (xmax = 0) AS inserted),
     due AS (
       INSERT INTO "MediaCheck" (sha256, "dueAt") VALUES ($1, now() + make_interval(secs => $4::float8 / 1000))
       ON CONFLICT (sha256) DO UPDATE SET "dueAt" = GREATEST("MediaCheck"."dueAt", EXCLUDED."dueAt"))
     SELECT inserted FROM blob`,
    [blob.sha256, blob.size, blob.mimetype, graceMs],
  );
  return !row?.inserted || store.has(blob.sha256);
}
