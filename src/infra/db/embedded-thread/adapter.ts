import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
} from '@prisma/driver-adapter-utils';
import type { EmbeddedThread } from './client.js';

/** The name of the adapter the thread runs, so Prisma treats these connections as it treats that adapter's. */
const ADAPTER_NAME = 'pglite-prisma-adapter';
const info = { provider: 'postgres', adapterName: ADAPTER_NAME } as const;

/**
 * Prisma's driver adapter for the embedded database on its own thread: each call crosses to the
 * thread, where the PGlite driver adapter runs it, and its answer (or error) crosses back.
 */
export function threadAdapterFactory(thread: EmbeddedThread): SqlMigrationAwareDriverAdapterFactory {
  const adapter = threadAdapter(thread);
  return {
    ...info,
    connect: async () => adapter,
    // Only `prisma migrate dev` diffs against a shadow database; the gateway applies migrations as they are.
    connectToShadowDb: () => Promise.reject(new Error('the embedded database has no shadow database')),
  };
}

function threadAdapter(thread: EmbeddedThread): SqlDriverAdapter {
  return {
    ...info,
    queryRaw: (query: SqlQuery) => thread.ask<SqlResultSet>({ op: 'query', query }),
    executeRaw: (query: SqlQuery) => thread.ask<number>({ op: 'execute', query }),
    executeScript: (script: string) => thread.ask<void>({ op: 'script', script }),
    getConnectionInfo: () => ({ supportsRelationJoins: true }),
    async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
      const generation = thread.generation;
      const tx = await thread.ask<number>({ op: 'begin', isolationLevel });
      return {
        ...info,
        options: { usePhantomQuery: true },
        queryRaw: (query: SqlQuery) => thread.askIn<SqlResultSet>(generation, { op: 'query', tx, query }),
        executeRaw: (query: SqlQuery) => thread.askIn<number>(generation, { op: 'execute', tx, query }),
        commit: () => thread.askIn<void>(generation, { op: 'commit', tx }),
        rollback: () => thread.askIn<void>(generation, { op: 'rollback', tx }),
      };
    },
    dispose: async () => {},
  };
}
