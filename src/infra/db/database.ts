import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/client.js';
import { failFastAdapter, failFastClient } from './unavailable.js';

export type { PrismaClient };

export interface DatabaseOptions {
  /** Called when a pooled connection fails outside a query (server restart, network cut). */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder for the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** Sees the text of every SQL query (tests count queries with it). */
  onQuery?: (sql: string) => void;
  /** Bounds on every wait for PostgreSQL, so a stalled server fails requests fast instead of hanging them. */
  timeouts?: DatabaseTimeouts;
}

export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, or for a new one to be established. */
  connectMs: number;
  /** One statement (server-side statement_timeout; the client gives up a second later if the server is silent). */
  statementMs: number;
  /** A whole transaction, from BEGIN to COMMIT. */
  transactionMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5000, statementMs: 5000, transactionMs: 10_000 };

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly prisma: PrismaClient;
  /** The adapter factory the schema engine uses to migrate the same database. */
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    // Without these handlers a connection dropped by the server while idle would crash the process;
    // the pool replaces it on the next query instead.
    const onError = options.onConnectionError ?? (() => {});
    const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
    const adapterFactory = new PrismaPg(
      {
        connectionString: options.databaseUrl,
        max: 20,
        connectionTimeoutMillis: timeouts.connectMs,
        statement_timeout: timeouts.statementMs,
        query_timeout: timeouts.statementMs + 1000,
        idle_in_transaction_session_timeout: timeouts.transactionMs,
        keepAlive: true,
      },
      { onPoolError: onError, onConnectionError: onError },
    );
    return wrap('postgres', failFastAdapter(adapterFactory), async () => {}, options.onQuery, timeouts);
  }
  const pglite = new PGlite(pgliteDir(options.dataDir));
  // One connection, in this process: it cannot stall the way a server can, and a transaction waits
  // for the ones before it (so its wait is not bounded like a pool's).
  return wrap('pglite', new PrismaPGlite(pglite), () => pglite.close(), options.onQuery, {
    connectMs: 30_000,
    statementMs: 30_000,
    transactionMs: 30_000,
  });
}

function pgliteDir(dataDir: string): string {
  if (dataDir.startsWith('memory://')) return dataDir;
  const dir = join(resolve(dataDir), 'pglite');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function wrap(
  kind: Database['kind'],
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  closeDriver: () => Promise<void>,
  onQuery: ((sql: string) => void) | undefined,
  timeouts: DatabaseTimeouts,
): Database {
  const client = new PrismaClient({
    adapter: adapterFactory,
    // The pool's own acquire timeout answers first (a second earlier), with the driver's reason.
    transactionOptions: { maxWait: timeouts.connectMs + 1000, timeout: timeouts.transactionMs },
    log: onQuery ? [{ emit: 'event', level: 'query' }] : [],
  });
  if (onQuery) (client as PrismaClient<'query'>).$on('query', (event) => onQuery(event.query));
  const prisma = failFastClient(client);
  return {
    kind,
    prisma,
    adapterFactory,
    async ping() {
      await prisma.$queryRaw`SELECT 1`;
    },
    async close() {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}
