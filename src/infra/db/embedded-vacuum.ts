import type { Logger } from '../logger.js';
import type { Statements } from './statements.js';

/**
 * PGlite is single-user PostgreSQL, with no autovacuum: dead row versions stayed for good (after 36,000
 * sends, 72,000 in "Message", and sends at 60 % of their first rate). This does autovacuum's job, with its
 * default thresholds, from the statistics its launcher reads.
 */

/** A table past a threshold: vacuum (and analyze) it, or only analyze it. */
export interface DueTable {
  table: string;
  vacuum: boolean;
}

/**
 * The tables due, as a column of the maintenance probe (so an idle gateway pays no statement for it).
 * PostgreSQL's defaults: vacuum past 50 + 20 % dead or 1,000 + 20 % inserted row versions, analyze
 * past 50 + 10 % changed.
 */
const DUE_COLUMN = `(
  SELECT coalesce(json_agg(json_build_object('table', relname, 'vacuum', vacuum)), '[]'::json) FROM (
    SELECT relname,
           n_dead_tup > 50 + 0.2 * n_live_tup OR n_ins_since_vacuum > 1000 + 0.2 * n_live_tup AS vacuum,
           n_mod_since_analyze > 50 + 0.1 * n_live_tup AS stale
    FROM pg_stat_user_tables
  ) t WHERE vacuum OR stale)`;

/** A pass that held the event loop longer than this is worth an operator's attention. */
const SLOW_MS = 1000;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export type EmbeddedVacuum = ReturnType<typeof embeddedVacuum>;

/**
 * `napMs`: a table done is left alone this long whatever its statistics say (they can lag behind a
 * pass), so a table written without pause is vacuumed at that rhythm, not back to back.
 */
export function embeddedVacuum(statements: Statements, logger: Logger, napMs: number) {
  const lastDone = new Map<string, number>();
  return {
    dueColumn: DUE_COLUMN,
    /** Vacuums or analyzes each due table, one statement at a time (PGlite runs one at a time: each holds the others while it runs). */
    async run(due: DueTable[]): Promise<void> {
      const now = Date.now();
      const tables = due.filter(({ table }) => now - (lastDone.get(table) ?? -Infinity) >= napMs);
      if (tables.length === 0) return;
      const started = performance.now();
      for (const { table, vacuum } of tables) {
        lastDone.set(table, now);
        try {
          await statements.run(vacuum ? `VACUUM (ANALYZE) ${quoted(table)}` : `ANALYZE ${quoted(table)}`);
        } catch (error) {
          logger.warn({ err: error, table }, 'embedded database upkeep failed; tried again later');
        }
      }
      const ms = Math.round(performance.now() - started);
      const done = tables.map(({ table, vacuum }) => `${table}${vacuum ? '' : ' (analyze)'}`);
      if (ms > SLOW_MS) logger.info({ tables: done, ms }, 'embedded database vacuumed; a larger database belongs on PostgreSQL');
      else logger.debug({ tables: done, ms }, 'embedded database vacuumed');
    },
  };
}
