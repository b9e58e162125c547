import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.js';
import { type DatabaseTimeouts, pgPoolConfig } from './pool-config.js';
import { countRoundTrips } from './round-trips.js';
import type { EmbeddedThread } from './embedded-thread/client.js';
import { type EmbeddedFolder, openEmbeddedFolder } from './embedded-folder.js';
import { threadAdapterFactory } from './embedded-thread/adapter.js';
import { poolStatements, type Statements, threadStatements } from './statements.js';
import { failFastAdapter, failFastClient } from './unavailable.js';

export type { PrismaClient };

export interface DatabaseOptions {
  /** Called when a pooled connection fails outside a query (server restart, network cut). */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder for the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** Sees the text of every SQL round trip, BEGIN and COMMIT included (tests count them with it). */
  onQuery?: (sql: string) => void;
  /** Bounds on every wait for PostgreSQL, so a stalled server fails requests fast instead of hanging them. */
  timeouts?: DatabaseTimeouts;
  /** The embedded folder, already locked and its thread started (by `main`, early); opened here if absent. */
  embedded?: EmbeddedFolder;
}

export type { DatabaseTimeouts };

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5000, statementMs: 5000, transactionMs: 10_000 };

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly prisma: PrismaClient;
  /** The same database without Prisma, for the message path's hot statements. */
  readonly statements: Statements;
  /** The adapter factory the schema engine uses to migrate the same database. */
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** The embedded database's thread (tests end it to see the gateway through a crash). */
  readonly thread?: EmbeddedThread;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    // Without these handlers a connection dropped by the server while idle would crash the process;
    // the pool replaces it on the next query instead.
    const onError = options.onConnectionError ?? (() => {});
    const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
    const poolConfig = pgPoolConfig(options.databaseUrl, timeouts, 20);
    // One pool for Prisma and for the hot statements, so their connections count against one limit.
    const pool = new pg.Pool(poolConfig);
    pool.on('error', onError);
    const appFactory = new PrismaPg(pool, { onPoolError: onError, onConnectionError: onError });
    // Migrations get a pool of their own that ends with them: the schema engine's session keeps its
    // advisory lock until its connection closes, which a shared pool would never do.
    const migrationFactory = failFastAdapter(new PrismaPg(poolConfig, { onPoolError: onError, onConnectionError: onError }));
    return wrap('postgres', failFastAdapter(appFactory), migrationFactory, poolStatements(pool, options.onQuery), () => pool.end(), options.onQuery, timeouts);
  }
  // PGlite runs on a thread of its own, so its statements take none of the event loop that serves
  // requests.
  const embedded = options.embedded ?? openEmbeddedFolder(options.dataDir);
  embedded.onDeath((error) => options.onConnectionError?.(error));
  const thread = embedded.thread;
  // One connection, in this process: it cannot stall the way a server can, and a transaction waits
  // for the ones before it (so its wait is not bounded like a pool's).
  const factory = threadAdapterFactory(thread);
  const closeThread = async () => {
    try {
      await thread.close();
    } finally {
      embedded.release();
    }
  };
  return wrap('pglite', factory, factory, threadStatements(thread, options.onQuery), closeThread, options.onQuery, {
    connectMs: 30_000,
    statementMs: 30_000,
    transactionMs: 30_000,
  }, thread);
}

function wrap(
  kind: Database['kind'],
  appFactory: SqlMigrationAwareDriverAdapterFactory,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  statements: Statements,
  closeDriver: () => Promise<void>,
  onQuery: ((sql: string) => void) | undefined,
  timeouts: DatabaseTimeouts,
  thread?: EmbeddedThread,
): Database {
  const client = new PrismaClient({
    adapter: onQuery ? countRoundTrips(appFactory, onQuery) : appFactory,
    // The pool's own acquire timeout answers first (a second earlier), with the driver's reason.
    transactionOptions: { maxWait: timeouts.connectMs + 1000, timeout: timeouts.transactionMs },
  });
  // Prisma compiles its query planner (WebAssembly) on the first query: started now, it runs while
  // the migrations are checked instead of after them (docs/benchmarks.md, "Start"). A failure here is
  // the first query's to report.
  client.$connect().catch(() => {});
  const prisma = failFastClient(client);
  return {
    kind,
    prisma,
    statements,
    adapterFactory,
    thread,
    async ping() {
      await prisma.$queryRaw`SELECT 1`;
    },
    async close() {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}
