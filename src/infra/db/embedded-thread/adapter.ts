import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
} from '@prisma/driver-adapter-utils';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
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
      // A thread that died took the transaction with it; its successor must not run the rest alone.
      const onThread = <T>(ask: () => Promise<T>) =>
        thread.generation === generation ? ask() : Promise.reject(new DriverAdapterError({ kind: 'TransactionAlreadyClosed', cause: 'the database thread restarted' }));
      return {
        ...info,
        options: { usePhantomQuery: true },
        queryRaw: (query: SqlQuery) => onThread(() => thread.ask<SqlResultSet>({ op: 'query', tx, query })),
        executeRaw: (query: SqlQuery) => onThread(() => thread.ask<number>({ op: 'execute', tx, query })),
        commit: () => onThread(() => thread.ask<void>({ op: 'commit', tx })),
        rollback: () => onThread(() => thread.ask<void>({ op: 'rollback', tx })),
      };
    },
    dispose: async () => {},
  };
}
