import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { guarded } from './unavailable.js';

/**
 * One SQL statement, one round trip, straight to the driver: the message path's hot statements skip
 * Prisma's query builder, which costs more CPU than the statement itself. Parameters are `$1…`;
 * rows come back as objects with the driver's types (timestamptz → Date, jsonb → object).
 */
export interface Statements {
  run<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it
   * throws. PGlite runs nothing else meanwhile, so a transaction there must not wait on anything slow.
   */
  transaction<T>(work: (run: Statements['run']) => Promise<T>): Promise<T>;
}

/** Enough for every statement the stores send; a text beyond it runs unprepared. */
const MAX_PREPARED = 64;

export function poolStatements(pool: Pool, onQuery?: (sql: string) => void): Statements {
  // Each connection parses and plans a named statement once, instead of on every run.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name && names.size < MAX_PREPARED) names.set(text, (name = `mgw_${names.size}`));
    return name;
  };
  return {
    async run<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const result = await guarded(() => pool.query({ name: nameOf(text), text, values: params as unknown[] }));
      return result.rows as Row[];
    },
    async transaction<T>(work: (run: Statements['run']) => Promise<T>): Promise<T> {
      const client = await guarded(() => pool.connect());
      const run = async <Row>(text: string, params: readonly unknown[] = []) => {
        onQuery?.(text);
        const result = await guarded(() => client.query({ name: nameOf(text), text, values: params as unknown[] }));
        return result.rows as Row[];
      };
      const control = async (text: string) => {
        onQuery?.(text);
        await guarded(() => client.query(text));
      };
      let broken: Error | undefined;
      try {
        await control('BEGIN');
        const result = await work(run);
        await control('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot roll back is not given back to the pool for someone else's statements.
        await control('ROLLBACK').catch((rollback: unknown) => (broken = rollback as Error));
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

/**
 * PGlite runs one statement or transaction at a time; `query` waits for any transaction Prisma has
 * open, so a statement here never lands inside someone else's transaction.
 */
export function pgliteStatements(pglite: PGlite, onQuery?: (sql: string) => void): Statements {
  return {
    async run<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const result = await guarded(() => pglite.query<Row>(text, params as unknown[]));
      return result.rows;
    },
    transaction<T>(work: (run: Statements['run']) => Promise<T>): Promise<T> {
      return guarded(() =>
        pglite.transaction((tx) =>
          work(async <Row>(text: string, params: readonly unknown[] = []) => {
            onQuery?.(text);
            return (await tx.query<Row>(text, params as unknown[])).rows;
          }),
        ),
      );
    },
  };
}

/**
 * A `JSON.stringify` replacer for flat rows read by `jsonb_to_recordset`: an absent key reads as NULL,
 * so nulls need not travel (every byte to the database is copied through the kernel on each write).
 */
export function withoutNulls(_key: string, value: unknown): unknown {
  return value === null ? undefined : value;
}
