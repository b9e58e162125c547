import type { MediaStore } from '../../../domain/media/media-store.port.js';
import { holdBlob } from '../../media/media-sweep.js';
import type { KeptMediaStore } from '../../../domain/media/kept-media.port.js';
import type { Outbox } from '../outbox.js';
import type { Statements } from '../statements.js';

/**
 * Due pending rows, each claimed by one node: SKIP LOCKED passes over rows another node is claiming,
 * and the lease (mediaRetryAt moved on) keeps them from the next sweeps until it runs out (a crash).
 */
const CLAIM = `
UPDATE "Message" SET "mediaRetryAt" = now() + make_interval(secs => $3::int / 1000.0)
WHERE id IN (
  SELECT id FROM "Message"
  WHERE "mediaState" = 'pending' AND ("mediaRetryAt" IS NULL OR "mediaRetryAt" <= now()) AND ($1::uuid IS NULL OR id = $1::uuid)
  ORDER BY "mediaRetryAt" ASC NULLS FIRST
  LIMIT $2::int
  FOR UPDATE SKIP LOCKED
)
RETURNING id::text AS id`;

const ANY_DUE = `SELECT EXISTS (SELECT 1 FROM "Message" WHERE "mediaState" = 'pending' AND ("mediaRetryAt" IS NULL OR "mediaRetryAt" <= now())) AS due`;

const DROP = `UPDATE "Message" SET "mediaState" = NULL, "mediaRetryAt" = NULL WHERE id = $1::uuid AND "mediaState" = 'pending'`;

/** The kept media's state on the messages, and the blobs they point at (docs/media.md). */
export function createKeptMediaStore(statements: Statements, outbox: Outbox, store: MediaStore | null): KeptMediaStore {
  return {
    async claim({ messageId, limit, leaseMs }) {
      const rows = await statements.run<{ id: string }>(CLAIM, [messageId ?? null, limit, leaseMs]);
      return rows.map((row) => row.id);
    },

    async anyDue() {
      const [row] = await statements.run<{ due: boolean }>(ANY_DUE);
      return row?.due ?? false;
    },

    hold: (blob) => (store ? holdBlob(statements, store, blob) : Promise.resolve(false)),

    async stored(message, blob, events) {
      await outbox.transaction(async (tx, emit) => {
        // Identical bytes are one blob, however many messages hold them (hold() recorded it).
        await tx.$executeRaw`
          UPDATE "Message" SET "mediaSha256" = ${blob.sha256}, "mediaState" = 'stored', "mediaAttempts" = "mediaAttempts" + 1,
                 "mediaRetryAt" = NULL, "mediaError" = NULL
          WHERE id = ${message.id}::uuid`;
        await emit(message, events);
      });
    },

    async failed(message, error, retryAt, events) {
      await outbox.transaction(async (tx, emit) => {
        const state = retryAt ? 'pending' : 'failed';
        await tx.$executeRaw`
          UPDATE "Message" SET "mediaState" = ${state}::"MediaKeepState", "mediaAttempts" = "mediaAttempts" + 1,
                 "mediaRetryAt" = ${retryAt}, "mediaError" = ${JSON.stringify(error)}::jsonb
          WHERE id = ${message.id}::uuid`;
        await emit(message, events);
      });
    },

    async dropped(messageId) {
      await statements.run(DROP, [messageId]);
    },
  };
}
