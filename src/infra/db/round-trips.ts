import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

type Seen = (sql: string) => void;

function countTransaction(tx: Transaction, seen: Seen): Transaction {
  return new Proxy(tx, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'queryRaw' || property === 'executeRaw') {
        return (query: SqlQuery) => {
          seen(query.sql);
          return value.call(target, query);
        };
      }
      if (property === 'commit' || property === 'rollback') {
        return () => {
          seen(property === 'commit' ? 'COMMIT' : 'ROLLBACK');
          return value.call(target);
        };
      }
      return value.bind(target);
    },
  });
}

function countAdapter(adapter: SqlDriverAdapter, seen: Seen): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'queryRaw' || property === 'executeRaw') {
        return (query: SqlQuery) => {
          seen(query.sql);
          return value.call(target, query);
        };
      }
      if (property === 'startTransaction') {
        return async (...args: unknown[]) => {
          seen('BEGIN');
          return countTransaction(await value.apply(target, args), seen);
        };
      }
      return value.bind(target);
    },
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
