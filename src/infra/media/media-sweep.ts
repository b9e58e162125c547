import type { MediaStore } from '../../domain/media/media-store.port.js';
import type { Logger } from '../logger.js';
import type { Statements } from '../db/statements.js';

/** Blobs per transaction: each one's row stays locked while its object is removed. */
const BATCH = 100;
/** Objects removed at once within a batch. */
const PARALLEL = 8;
/**
 * A blob kept (or kept again) this recently is left alone even when no message names it yet: the
 * message's own update may not be committed (docs/media-retention.md, "Removing objects").
 */
export const MEDIA_SWEEP_GRACE_MS = 10 * 60_000;

export interface MediaSweepObserver {
  removed(objects: number, bytes: number): void;
}

/**
 * Blobs no message references any more, past the grace, locked for this transaction: another node's
 * sweep skips them, and a keeper holding the same bytes again waits until they are gone.
 */
const UNREFERENCED = `
SELECT b.sha256, b.size::float8 AS size FROM "MediaBlob" b
WHERE b."createdAt" < $2 AND NOT EXISTS (SELECT 1 FROM "Message" m WHERE m."mediaSha256" = b.sha256)
LIMIT $1 FOR UPDATE OF b SKIP LOCKED`;

export type MediaSweep = ReturnType<typeof createMediaSweep>;

/**
 * Removes the objects no message holds (docs/media-retention.md): the object first, then its row, in
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

  /** One batch: how many blobs it found, and how many of them are gone. */
  async function batch(): Promise<{ found: number; removed: number }> {
    return deps.statements.transaction(async (run) => {
      const blobs = await run<{ sha256: string; size: number }>(UNREFERENCED, [BATCH, new Date(now() - graceMs)]);
      const removed: string[] = [];
      let bytes = 0;
      for (let i = 0; i < blobs.length; i += PARALLEL) {
        const slice = blobs.slice(i, i + PARALLEL);
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
      if (removed.length) deps.observer.removed(removed.length, bytes);
      return { found: blobs.length, removed: removed.length };
    });
  }

  return {
    /** Removes every unreferenced blob past the grace: how many objects went. */
    async sweep(): Promise<number> {
      let total = 0;
      for (;;) {
        const { found, removed } = await batch();
        total += removed;
        // A batch whose removes all failed is not run again at once: the next sweep tries them.
        if (found < BATCH || removed === 0) return total;
      }
    },
  };
}

/**
 * Records bytes a message is about to hold (the keeper's half of the contract above): the blob's row
 * is made, or its grace starts again. A row made anew may follow a sweep that removed the object
 * after `put` found it there, so the object is checked: false means put the bytes again.
 */
export async function holdBlob(statements: Statements, store: MediaStore, blob: { sha256: string; size: number; mimetype: string }): Promise<boolean> {
  const [row] = await statements.run<{ inserted: boolean }>(
    `INSERT INTO "MediaBlob" (sha256, size, mimetype) VALUES ($1, $2, $3)
     ON CONFLICT (sha256) DO UPDATE SET "createdAt" = now() RETURNING (xmax = 0) AS inserted`,
    [blob.sha256, blob.size, blob.mimetype],
  );
  return !row?.inserted || store.has(blob.sha256);
}
