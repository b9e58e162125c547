import { cpSync, existsSync, mkdtempSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every test gateway starts from a migrated database: the suite's global setup migrates one template
 * per storage mode (test/setup/global.ts) and names it in these variables; each gateway gets a copy.
 * Outside vitest (benchmarks) they are unset and a gateway migrates its own fresh database.
 */
export const TEMPLATE_ENV = {
  /** A PostgreSQL database holding every migration, for `CREATE DATABASE … TEMPLATE`. */
  postgres: 'MGW_TEST_POSTGRES_TEMPLATE',
  /** A PGlite data folder (`DATA_DIR`) holding every migration, copied per gateway. */
  pglite: 'MGW_TEST_PGLITE_TEMPLATE',
} as const;

export function postgresTemplate(): string | undefined {
  return process.env[TEMPLATE_ENV.postgres] || undefined;
}

/**
 * A new folder for one gateway's `DATA_DIR`: inside the run's PGlite template folder, which the global
 * teardown removes (with whatever a test left), or in the system's temporary folder outside a run.
 */
export function testDataDir(): string {
  return mkdtempSync(join(process.env[TEMPLATE_ENV.pglite] ?? tmpdir(), 'mgw-test-'));
}

/**
 * Fills `dataDir` (a `DATA_DIR`) with a copy of the migrated PGlite template, when there is one:
 * a fresh PGlite folder costs an initdb (seconds of CPU), a copy a fraction of one.
 */
export function seedPgliteDataDir(dataDir: string): boolean {
  const template = process.env[TEMPLATE_ENV.pglite];
  if (!template || !existsSync(join(template, 'pglite'))) return false;
  cpSync(join(template, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
  return true;
}

/** A memory-backed folder the test data may go in, when the machine has one with room to spare. */
const MEMORY_FOLDER = '/dev/shm';
const MEMORY_ROOM = 4 * 1024 ** 3;

/**
 * Where the run's PGlite template and its copies go: `/dev/shm` when it has 4 GiB free, else the
 * system's temporary folder (or with TEST_DATA_ON_DISK=1); why: docs/development.md, "Tests".
 */
export function testDataRoots(): { chosen: string; all: string[] } {
  const disk = tmpdir();
  let room: number | undefined;
  try {
    const { bavail, bsize } = statfsSync(MEMORY_FOLDER);
    room = bavail * bsize;
  } catch {
    // No such folder (not Linux): the disk it is.
  }
  const chosen = room !== undefined && room >= MEMORY_ROOM && process.env.TEST_DATA_ON_DISK !== '1' ? MEMORY_FOLDER : disk;
  // Both are looked in for what an ended run left, whichever this run chose.
  return { chosen, all: room === undefined ? [disk] : [MEMORY_FOLDER, disk] };
}
