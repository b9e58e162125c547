import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/client.js';

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
}

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
    const adapterFactory = new PrismaPg(
      { connectionString: options.databaseUrl, max: 20 },
      { onPoolError: onError, onConnectionError: onError },
    );
    return wrap('postgres', adapterFactory, async () => {}, options.onQuery);
  }
  const pglite = new PGlite(pgliteDir(options.dataDir));
  return wrap('pglite', new PrismaPGlite(pglite), () => pglite.close(), options.onQuery);
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
): Database {
  // Under load a transaction may wait for a pooled connection longer than Prisma's 2 s default;
  // waiting beats failing the request.
  const prisma = new PrismaClient({
    adapter: adapterFactory,
    transactionOptions: { maxWait: 10_000, timeout: 15_000 },
    log: onQuery ? [{ emit: 'event', level: 'query' }] : [],
  });
  if (onQuery) (prisma as PrismaClient<'query'>).$on('query', (event) => onQuery(event.query));
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
