import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

type Seen = (sql: string) => void;

/** A proxy of `target` that reports each statement it runs, and whatever `more` adds. */
function counting<T extends object>(target: T, seen: Seen, more: (property: string | symbol, method: (...args: never[]) => unknown) => unknown): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'queryRaw' || property === 'executeRaw') {
        return (query: SqlQuery) => {
          seen(query.sql);
          return value.call(object, query);
        };
      }
      return more(property, value.bind(object)) ?? value.bind(object);
    },
  });
}

function countTransaction(tx: Transaction, seen: Seen): Transaction {
  return counting(tx, seen, (property, method) => {
    if (property !== 'commit' && property !== 'rollback') return undefined;
    return () => {
      seen(property === 'commit' ? 'COMMIT' : 'ROLLBACK');
      return (method as () => Promise<void>)();
    };
  });
}

function countAdapter(adapter: SqlDriverAdapter, seen: Seen): SqlDriverAdapter {
  return counting(adapter, seen, (property, method) => {
    if (property !== 'startTransaction') return undefined;
    return async (...args: unknown[]) => {
      seen('BEGIN');
      return countTransaction(await (method as (...a: unknown[]) => Promise<Transaction>)(...args), seen);
    };
  });
}

/**
 * Reports every round trip Prisma makes to the database, BEGIN and COMMIT included (Prisma's own
 * query events leave those out), so tests and benchmarks count what the database really serves.
 */
export function countRoundTrips(factory: SqlMigrationAwareDriverAdapterFactory, seen: Seen): SqlMigrationAwareDriverAdapterFactory {
  return new Proxy(factory, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'connect') return async () => countAdapter(await (value as () => Promise<SqlDriverAdapter>).apply(target), seen);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
