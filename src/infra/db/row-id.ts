import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/** Random bytes for 256 ids, drawn at once: one draw per id cost 3 % of the send path (a system call each). */
const pool = new Uint8Array(16 * 256);
let used = pool.length;

function randomBytes16(): Uint8Array {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool.subarray(used, (used += 16));
}

/**
 * Ids of the rows the message path writes fast (messages, outbox events, deliveries): UUID v7, time
 * first (RFC 9562), so new index entries land at each b-tree's right edge and the pages being written
 * stay few however large the table grows.
 */
export function newRowId(): string {
  return v7({ random: randomBytes16() });
}

/** A v7 id of a past moment (a history message's own time): retention and pages read it in its place. */
export function rowIdAt(at: Date): string {
  return v7({ random: randomBytes16(), msecs: at.getTime() });
}
