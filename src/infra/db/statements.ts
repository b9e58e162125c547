import type { Pool } from 'pg';
import type { EmbeddedThread } from './embedded-thread/client.js';
import { isLockConflict } from './prisma-errors.js';
import { runAgainWhen } from './run-again.js';
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

/** How often a statement that lost a lock cycle is run before its failure is the caller's. */
const LOCK_CONFLICT_ATTEMPTS = 3;

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
      // One statement on its own is its own transaction: one that PostgreSQL chose to end a lock cycle
      // (deadlock, serialization failure) changed nothing, so it is run again, as the same statement.
      return runAgainWhen(isLockConflict, { attempts: LOCK_CONFLICT_ATTEMPTS, firstWaitMs: 10 }, async () => {
        onQuery?.(text);
        const result = await guarded(() => pool.query({ name: nameOf(text), text, values: params as unknown[] }));
        return result.rows as Row[];
      });
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
 * The embedded database on its own thread (embedded-thread/): PGlite runs one statement or
 * transaction at a time, so a statement here waits for any transaction open there, Prisma's included,
 * and never lands inside it.
 */
export function threadStatements(thread: EmbeddedThread, onQuery?: (sql: string) => void): Statements {
  return {
    run<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      return guarded(() => thread.ask<Row[]>({ op: 'rows', text, params }));
    },
    async transaction<T>(work: (run: Statements['run']) => Promise<T>): Promise<T> {
      const generation = thread.generation;
      onQuery?.('BEGIN');
      const tx = await guarded(() => thread.ask<number>({ op: 'begin' }));
      const onThread = <R>(request: Parameters<EmbeddedThread['ask']>[0]) => guarded(() => thread.askIn<R>(generation, request));
      let result: T;
      try {
        result = await work(<Row>(text: string, params: readonly unknown[] = []) => {
          onQuery?.(text);
          return onThread<Row[]>({ op: 'rows', tx, text, params });
        });
      } catch (error) {
        onQuery?.('ROLLBACK');
        await onThread({ op: 'rollback', tx }).catch(() => {});
        throw error;
      }
      onQuery?.('COMMIT');
      await onThread({ op: 'commit', tx });
      return result;
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
