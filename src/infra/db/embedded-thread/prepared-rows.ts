/**
 * The hot statements (statements.ts) as named prepared statements on PGlite: parsed and described once,
 * then one bind-execute-sync call a run, where `PGlite.query` plans every run (docs/architecture.md,
 * "The embedded database's thread").
 */
import { type PGlite, parse as results, protocol } from '@electric-sql/pglite';

const { serialize } = protocol;
type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** Enough for every statement the stores send; a text beyond it runs unprepared. */
const MAX_PREPARED = 64;

interface Prepared {
  name: string;
  paramTypes: number[];
  /** What the statement's rows look like (absent for a statement that returns none). */
  rowDescription?: BackendMessage;
}

/**
 * A prepared statement that no longer fits its text: the tables under a `SELECT *` changed ('0A000',
 * "cached plan must not change result type"), or the statement is gone ('26000'). Prepared again, once.
 */
const isStale = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '26000' || (code === '0A000' && /cached plan/.test((error as Error).message));
};

export function preparedRows(pglite: PGlite) {
  const prepared = new Map<string, Prepared>();
  let nextName = 0;
  const step = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });

  /** `name` '': the unnamed statement, which the next Parse replaces (a text past the limit). */
  async function prepare(text: string, name: string): Promise<Prepared> {
    const described = await step(Buffer.concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]));
    return { name, paramTypes: results.parseDescribeStatementResults(described), rowDescription: described.find((message) => message.name === 'rowDescription') };
  }

  /**
   * One run of a prepared (or, past the limit, unnamed) statement. Its messages go in one buffer, as
   * a client over a socket pipelines them: one call into PGlite instead of one per message, and the
   * sync at the end returns the session to where it was whether the statement worked or not.
   */
  async function once(text: string, params: readonly unknown[]): Promise<unknown[]> {
    let statement = prepared.get(text);
    if (!statement) {
      // A name is never used twice: a Parse that failed half-way may have left its statement behind.
      const kept = prepared.size < MAX_PREPARED;
      statement = await prepare(text, kept ? `mgw_${nextName++}` : '');
      if (kept) prepared.set(text, statement);
    }
    // The values as PGlite's own query serializes them, by the types PostgreSQL inferred; bytes are
    // bound as they are (binary format), not as hex text twice their size that the database then parses.
    const values = params.map((value, n) => {
      if (value === null || value === undefined || value instanceof Uint8Array) return value ?? null;
      const serializer = pglite.serializers[statement.paramTypes[n]!];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await step(Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]));
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return results.parseResults(described, pglite.parsers)[0]!.rows;
  }

  /** Drops a stale statement, so that statements no longer used do not pile up in the session. */
  async function forget(text: string) {
    const { name } = prepared.get(text)!;
    prepared.delete(text);
    await step(Buffer.concat([serialize.close({ type: 'S', name }), serialize.sync()])).catch(() => {});
  }

  /** Inside a transaction a failed statement has aborted it, so a stale one is prepared again only outside. */
  async function run(text: string, params: readonly unknown[], retry: boolean): Promise<unknown[]> {
    try {
      return await once(text, params);
    } catch (error) {
      if (!isStale(error) || !prepared.has(text)) throw error;
      await forget(text);
      if (!retry) throw error;
      return once(text, params);
    }
  }

  return {
    /**
     * The rows of one statement. Outside a transaction it waits for any open one (as `PGlite.query`
     * does) and runs on its own; `inTransaction`: it runs inside the transaction that is open.
     */
    async rows(text: string, params: readonly unknown[], inTransaction: boolean): Promise<unknown[]> {
      await pglite.waitReady;
      if (inTransaction) return pglite._runExclusiveQuery(() => run(text, params, false));
      const rows = await pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(() => run(text, params, true)));
      await pglite.syncToFs();
      return rows;
    },
  };
}
