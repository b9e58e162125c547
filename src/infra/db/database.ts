import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.js';
import { lockDataFolder } from './data-folder-lock.js';
import { type DatabaseTimeouts, pgPoolConfig } from './pool-config.js';
import { countRoundTrips } from './round-trips.js';
import { type EmbeddedThread, startEmbeddedThread } from './embedded-thread/client.js';
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
  // One process at a time on a folder (docs/operating.md): refused here, before PGlite touches a file.
  const embeddedFolder = options.dataDir.startsWith('memory://') ? undefined : resolve(options.dataDir);
  if (embeddedFolder) mkdirSync(join(embeddedFolder, 'pglite'), { recursive: true });
  const lock = embeddedFolder ? lockDataFolder(embeddedFolder) : undefined;
  // PGlite runs on a thread of its own, so its statements take none of the event loop that serves
  // requests. Its own default buffer cache (128 MB) is most of an idle gateway's memory; the page cache
  // of the host holds what does not fit in 16 MB.
  const thread = startEmbeddedThread(
    { dataDir: pgliteDir(options.dataDir), settings: ['-c', 'shared_buffers=16MB'] },
    (error) => options.onConnectionError?.(error),
  );
  // One connection, in this process: it cannot stall the way a server can, and a transaction waits
  // for the ones before it (so its wait is not bounded like a pool's).
  const factory = threadAdapterFactory(thread);
  const closeThread = async () => {
    try {
      await thread.close();
    } finally {
      lock?.release();
    }
  };
  return wrap('pglite', factory, factory, threadStatements(thread, options.onQuery), closeThread, options.onQuery, {
    connectMs: 30_000,
    statementMs: 30_000,
    transactionMs: 30_000,
  }, thread);
}

function pgliteDir(dataDir: string): string {
  if (dataDir.startsWith('memory://')) return dataDir;
  return join(resolve(dataDir), 'pglite');
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
