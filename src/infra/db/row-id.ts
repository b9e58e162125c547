import { v7 } from 'uuid';

/**
 * The id of a row the message path writes at a high rate (messages, outbox events, webhook
 * deliveries): a UUID whose leading bits are the time it was made (RFC 9562 version 7). New rows'
 * index entries land at the right edge of each b-tree instead of on a random leaf, so the pages being
 * written stay few however large the table grows; with random ids every leaf of every such index is
 * being written, and once those outgrow the database's buffer cache each write reads a page back
 * first (embedded, PGlite's 16 MB cache was full after ~20,000 messages).
 */
export const newRowId: () => string = v7;
