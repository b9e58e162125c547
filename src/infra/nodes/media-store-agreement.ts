import { ConfigError } from '../../config.js';
import { mediaStoreDisagreement, type NodeStore } from '../../domain/media/store-agreement.js';
import type { Statements } from '../db/statements.js';

const OTHER_LIVE_NODES = `SELECT id, "mediaStore" FROM "GatewayNode" WHERE "staleAt" > now() AND id IS DISTINCT FROM $1 ORDER BY id`;

/**
 * Refuses to start a node whose media store is not its live peers' (docs/media.md, "Stores"), before
 * anything is opened or served. Two nodes starting at the same moment do not see each other yet.
 */
export async function agreeOnMediaStore(statements: Statements, mine: string, node: string | undefined): Promise<void> {
  const others = await statements.run<NodeStore>(OTHER_LIVE_NODES, [node ?? null]);
  const why = mediaStoreDisagreement(mine, others);
  if (why) throw new ConfigError([why]);
}
