import type { Statements } from '../../infra/db/statements.js';

// Ordered by id: row ids are time-ordered (src/infra/db/row-id.ts).
const LAST_RECEIVED = `
SELECT "networkMessageId" FROM "Message"
WHERE "instanceId" = $1::uuid AND direction = 'in' AND "from" = $2 AND "networkMessageId" IS NOT NULL
ORDER BY id DESC LIMIT 1`;

/**
 * The network's id of the last message a chat sent the instance, or null when it never wrote. The
 * business API shows a typing indicator only while marking a received message read, so typing in a
 * chat needs one.
 */
export function createLastReceived(statements: Statements) {
  return async (instanceId: string, chat: string): Promise<string | null> => {
    const [row] = await statements.run<{ networkMessageId: string }>(LAST_RECEIVED, [instanceId, chat]);
    return row?.networkMessageId ?? null;
  };
}
