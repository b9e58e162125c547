import type pg from 'pg';

export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, or for a new one to be established. */
  connectMs: number;
  /** One statement (server-side statement_timeout; the client gives up a second later if the server is silent). */
  statementMs: number;
  /** A whole transaction, from BEGIN to COMMIT. */
  transactionMs: number;
}

/** A node-postgres pool bounded by the gateway's database timeouts. */
export function pgPoolConfig(databaseUrl: string, timeouts: DatabaseTimeouts, max: number): pg.PoolConfig {
  return {
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + 1000,
    idle_in_transaction_session_timeout: timeouts.transactionMs,
    keepAlive: true,
  };
}
