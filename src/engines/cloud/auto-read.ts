import { storedSettingsOf } from '../../domain/settings/instance-settings.js';
import type { Statements } from '../../infra/db/statements.js';

const SETTINGS = `SELECT settings FROM "Instance" WHERE id = $1::uuid`;

/**
 * Whether an instance marks what it receives read at once (autoRead, docs/settings.md). The network's
 * webhook may land on any node, not only the one holding the instance, so it is read from the row.
 */
export function createAutoReadCheck(statements: Statements) {
  return async (instanceId: string): Promise<boolean> => {
    const [row] = await statements.run<{ settings: unknown }>(SETTINGS, [instanceId]);
    return row ? storedSettingsOf(row).autoRead : false;
  };
}
