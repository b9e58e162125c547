import type { IsolationLevel, SqlQuery } from '@prisma/driver-adapter-utils';

/**
 * What the gateway's thread asks the embedded database's thread (docs/architecture.md, "The embedded
 * database's thread"). `tx` names a transaction `begin` opened; without it a request runs on its own.
 */
export type Request =
  /** Prisma's statements, read and parsed as the PGlite driver adapter does. */
  | { id: number; op: 'query' | 'execute'; tx?: number; query: SqlQuery }
  | { id: number; op: 'script'; script: string }
  /** The hot statements (statements.ts): rows as objects, with the driver's own types. */
  | { id: number; op: 'rows'; tx?: number; text: string; params: readonly unknown[] }
  | { id: number; op: 'begin'; isolationLevel?: IsolationLevel }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' };

export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: CarriedError }
  /** The first thread of a process compiles PGlite's code itself and hands it back for the next ones. */
  | { compiled: CompiledDatabase };

/** What the thread opens: PGlite's data folder (or `memory://…`) and settings beside PGlite's own. */
export interface ThreadData {
  dataDir: string;
  settings: string[];
}

/**
 * PGlite's WebAssembly, compiled once per process: by the first database thread (so the gateway's
 * thread, busy loading its own code at start, delays nothing), then shared with each thread after it.
 */
export interface CompiledDatabase {
  pglite: WebAssembly.Module;
  initdb: WebAssembly.Module;
}

/**
 * An error as it crosses threads: structured cloning keeps an Error's message but not the fields
 * callers read (a SQLSTATE `code`, a driver adapter error's `cause`).
 */
export interface CarriedError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export function carry(error: unknown): CarriedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) if (typeof value !== 'function') fields[key] = value;
  // A driver adapter error's payload is its `cause`, which is not an own enumerable field.
  if (error.cause !== undefined && typeof error.cause === 'object') fields.cause = { ...error.cause };
  return { name: error.name, message: error.message, fields };
}
