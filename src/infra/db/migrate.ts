import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';

// Prisma's schema engine compiled to WebAssembly: migrations run with the same driver adapter as the
// app, so no native engine binary (and no download) is ever needed.
// Its ESM entry imports the .wasm file directly, which Node cannot load; we instantiate it here.
type EngineModule = typeof import('@prisma/schema-engine-wasm');
type SchemaEngine = import('@prisma/schema-engine-wasm').SchemaEngine;
type MigrationList = import('@prisma/schema-engine-wasm').MigrationList;
// Node has WebAssembly at run time; the Node type definitions of this TypeScript setup do not declare it.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, unknown>) => { exports: Record<string, unknown> };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export const MIGRATIONS_DIR = resolve('prisma/migrations');
export const SCHEMA_PATH = resolve('prisma/schema.prisma');
const LOCKFILE = 'migration_lock.toml';

let engineModule: Promise<EngineModule> | undefined;

function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const bindings = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as EngineModule & {
      __wbg_set_wasm(exports: Record<string, unknown>): void;
    };
    // The .wasm file is not in the package's exports; it sits beside the bindings.
    const wasmPath = new URL('schema_engine_bg.wasm', import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const module = new Wasm.Module(readFileSync(wasmPath));
    const instance = new Wasm.Instance(module, { './schema_engine_bg.js': bindings });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return engineModule;
}

async function withEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  work: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const schema = readFileSync(SCHEMA_PATH, 'utf8');
  const tracked = trackConnections(adapterFactory);
  const engine = await SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(tracked.factory),
  );
  try {
    return await work(engine);
  } finally {
    engine.free();
    // The engine does not close what it opened; its session still holds Prisma's migration
    // advisory lock, which would make the next node to start wait 10 s for it.
    await tracked.dispose();
  }
}

function trackConnections(factory: SqlMigrationAwareDriverAdapterFactory) {
  const opened: SqlDriverAdapter[] = [];
  const track = async (connecting: Promise<SqlDriverAdapter>) => {
    const adapter = await connecting;
    opened.push(adapter);
    return adapter;
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => track(factory.connect()),
    connectToShadowDb: () => track(factory.connectToShadowDb()),
  };
  return { factory: tracked, dispose: () => Promise.allSettled(opened.map((adapter) => adapter.dispose())) };
}

function readMigrations(dir: string): MigrationList {
  const names = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  const lockPath = join(dir, LOCKFILE);
  return {
    baseDir: dir,
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: names.map((name) => {
      const file = join(dir, name, 'migration.sql');
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: existsSync(file)
            ? { tag: 'ok' as const, value: readFileSync(file, 'utf8') }
            : { tag: 'error' as const, value: `${file} is missing` },
        },
      };
    }),
  };
}

/** What `prisma migrate deploy` does: applies pending migrations, recorded in `_prisma_migrations`. */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  dir = MIGRATIONS_DIR,
): Promise<string[]> {
  // Loading the schema engine means compiling its WebAssembly at every start: only do it when
  // something is to be applied.
  if (await allApplied(adapterFactory, dir)) return [];
  return withEngine(adapterFactory, async (engine) => {
    const result = await engine.applyMigrations({
      migrationsList: readMigrations(dir),
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.appliedMigrationNames;
  });
}

/** Whether every migration folder is recorded as applied (and none failed or was rolled back). */
async function allApplied(adapterFactory: SqlMigrationAwareDriverAdapterFactory, dir: string): Promise<boolean> {
  const wanted = readMigrations(dir).migrationDirectories.map((m) => m.path);
  let adapter: SqlDriverAdapter | undefined;
  try {
    adapter = await adapterFactory.connect();
    const result = await adapter.queryRaw({
      sql: 'SELECT migration_name, finished_at IS NOT NULL AND rolled_back_at IS NULL AS ok FROM _prisma_migrations',
      args: [],
      argTypes: [],
    });
    const applied = new Set(result.rows.filter((row) => row[1] === true).map((row) => String(row[0])));
    // A database migrated by newer code than this is left to the engine to judge.
    return wanted.every((name) => applied.has(name)) && [...applied].every((name) => wanted.includes(name));
  } catch {
    return false; // no migrations table yet: a new database
  } finally {
    await adapter?.dispose();
  }
}

/**
 * Writes a new migration folder holding the SQL that takes the committed migrations to the current
 * schema. Returns its path, or null when the schema has not changed.
 */
export async function createMigration(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  name: string,
  dir = MIGRATIONS_DIR,
): Promise<string | null> {
  const list = readMigrations(dir);
  const sql = await withEngine(adapterFactory, async (engine) => {
    const result = await engine.diff({
      from: list.migrationDirectories.length === 0 ? { tag: 'empty' } : { tag: 'migrations', ...list },
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: readFileSync(SCHEMA_PATH, 'utf8') }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? '';
  });
  if (!/\b(CREATE|ALTER|DROP)\b/i.test(sql)) return null;
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const folder = join(dir, `${stamp}_${name.replace(/[^a-z0-9_]+/gi, '_').toLowerCase()}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'migration.sql'), sql);
  writeFileSync(
    join(dir, LOCKFILE),
    '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
  );
  return folder;
}
