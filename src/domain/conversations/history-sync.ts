import { z } from 'zod';
import { DEFAULT_HISTORY_SYNC, type HistorySyncPolicy } from '../network/engine-history.js';

/**
 * How much of its phone's past an instance takes (docs/conversations.md, "History"): an instance
 * body's `historySync`, kept on the instance; null there means the default.
 */
export const historySyncInput = z.strictObject({
  mode: z.enum(['none', 'recent', 'full'], { message: 'must be one of none, recent, full' }),
  days: z
    .number({ message: 'must be a whole number of days from 1 to 3650' })
    .int('must be a whole number of days from 1 to 3650')
    .min(1, 'must be a whole number of days from 1 to 3650')
    .max(3650, 'must be a whole number of days from 1 to 3650')
    .default(DEFAULT_HISTORY_SYNC.days),
});

/** The instance's policy: what it keeps when that parses, else the default. */
export function historySyncOf(instance: { historySync: unknown }): HistorySyncPolicy {
  const parsed = historySyncInput.safeParse(instance.historySync);
  return parsed.success ? parsed.data : DEFAULT_HISTORY_SYNC;
}
