import type pg from 'pg';
import type { DatabaseTimeouts } from './database.js';

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
