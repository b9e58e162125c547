import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, Transaction } from '@prisma/driver-adapter-utils';
import { Unavailable } from '../../domain/errors.js';
import type { PrismaClient } from './generated/client.js';

/** Driver adapter error kinds that mean "the database did not answer", not "the query was wrong". */
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionAlreadyClosed']);

/**
 * PostgreSQL error classes of a server that cannot serve right now: connection exceptions (08),
 * insufficient resources (53), operator intervention such as a statement timeout or a shutdown (57).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57)/;

/**
 * Prisma's own codes for a database it cannot reach or that did not answer in time: can't reach
 * (P1001), timed out (P1002, P1008), connection closed (P1017), no pooled connection in time (P2024),
 * and a transaction that could not start or ran out of time (P2028).
 */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

/** node-postgres failures that carry no code: pool acquire and read timeouts, a dropped connection. */
const UNREACHABLE_MESSAGE = /timeout exceeded when trying to connect|Query read timeout|Connection terminated|Connection ended|Client has encountered a connection error|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT/;

/** Whether a database failure means the database could not be reached or did not answer in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof Unavailable || e.code === 'service_unavailable') return true;
    if (typeof e.code === 'string' && UNAVAILABLE_PRISMA_CODES.has(e.code)) return true;
    const cause = (e as { cause?: { kind?: unknown; code?: unknown } }).cause;
    if (e.name === 'DriverAdapterError' && cause) {
      if (UNREACHABLE_KINDS.has(String(cause.kind))) return true;
      if (cause.kind === 'postgres' && UNAVAILABLE_SQLSTATE.test(String(cause.code))) return true;
    }
    if (typeof e.code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(e.code)) return true;
    // A server error read straight from the driver (node-postgres, PGlite) carries its SQLSTATE.
    if (typeof e.severity === 'string' && typeof e.code === 'string' && UNAVAILABLE_SQLSTATE.test(e.code)) return true;
    if (typeof e.message === 'string' && UNREACHABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

const DATABASE_UNAVAILABLE = 'The database is not answering. Retry shortly.';

/** Runs a database call; a failure that means "the database is not answering" becomes the domain's `Unavailable`. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new Unavailable(DATABASE_UNAVAILABLE, { cause: error });
    throw error;
  }
}

function guardTransaction(tx: Transaction): Transaction {
  return new Proxy(tx, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'queryRaw' || property === 'executeRaw' || property === 'commit' || property === 'rollback') {
        return (...args: unknown[]) => guarded(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      }
      return value;
    },
  });
}

function guardAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'queryRaw' || property === 'executeRaw' || property === 'executeScript') {
        return (...args: unknown[]) => guarded(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      }
      if (property === 'startTransaction') {
        return (...args: unknown[]) =>
          guarded(async () => guardTransaction(await (value as (...a: unknown[]) => Promise<Transaction>).apply(target, args)));
      }
      return value;
    },
  });
}

/**
 * Every query through this adapter factory that fails because the database is unreachable, stalled
 * or timed out fails as the domain's `Unavailable` (503 service_unavailable over REST, the typed
 * error over GraphQL) instead of an unexpected error: one place decides what "database down" is.
 */
export function failFastAdapter(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  return new Proxy(factory, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'connect') {
        return async () => guardAdapter(await guarded(() => (value as () => Promise<SqlDriverAdapter>).apply(target)));
      }
      return value;
    },
  });
}

/**
 * Prisma re-wraps what the adapter throws inside its own error class; this client extension gives
 * callers the domain's `Unavailable` itself, from model operations, raw queries and transactions alike.
 */
export function failFastClient(client: PrismaClient): PrismaClient {
  const extended = client.$extends({
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (error) {
          if (!(error instanceof Unavailable) && isDatabaseUnavailable(error)) throw new Unavailable(DATABASE_UNAVAILABLE, { cause: error });
          throw error;
        }
      },
    },
  });
  // Interactive transactions fail outside any operation (no connection in time, out of time): the
  // same rule applies to $transaction itself.
  const transaction = extended.$transaction.bind(extended) as (...args: unknown[]) => Promise<unknown>;
  const guardedTransaction = (...args: unknown[]) => guarded(() => transaction(...args));
  // The extension and the wrapper change no model or method, only what a failure looks like.
  return new Proxy(extended, {
    get(target, property) {
      if (property === '$transaction') return guardedTransaction;
      const value: unknown = Reflect.get(target, property);
      // Methods run on the client itself, whose private state a proxy cannot reach.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as PrismaClient;
}
