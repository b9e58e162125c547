import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/infra/db/database.js';
import { type Mode, MODES } from '../helpers/modes.js';
import { createTestDatabase } from '../helpers/postgres.js';

// Statements.transaction: what the event streams' publish step runs in (lock, read, publish, mark).
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function database(mode: Mode): Promise<Database> {
  let url: string | undefined;
  if (mode.database === 'postgres') {
    const created = await createTestDatabase();
    cleanups.push(created.drop);
    url = created.url;
  }
  const db = openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  cleanups.push(() => db.close());
  await db.statements.run('CREATE TABLE t (n int PRIMARY KEY)');
  return db;
}

describe.each(MODES)('statements.transaction — $name', (mode) => {
  it('commits what the work did when it resolves, and answers its result', async () => {
    const db = await database(mode);
    const result = await db.statements.transaction(async (run) => {
      await run('INSERT INTO t VALUES ($1), ($2)', [1, 2]);
      return (await run<{ count: number }>('SELECT count(*)::int AS count FROM t'))[0]!.count;
    });
    expect(result).toBe(2);
    expect(await db.statements.run('SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('rolls everything back when the work throws, and passes its error on', async () => {
    const db = await database(mode);
    const failure = db.statements.transaction(async (run) => {
      await run('INSERT INTO t VALUES ($1)', [1]);
      throw new Error('publish failed');
    });
    await expect(failure).rejects.toThrow('publish failed');
    // A statement the database refuses rolls back as well (the second insert of 3 is a duplicate).
    await expect(
      db.statements.transaction(async (run) => {
        await run('INSERT INTO t VALUES ($1)', [3]);
        await run('INSERT INTO t VALUES ($1)', [3]);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await db.statements.run('SELECT n FROM t')).toEqual([]);
    // The connection went back usable: the next transaction works.
    await db.statements.transaction((run) => run('INSERT INTO t VALUES ($1)', [4]));
    expect(await db.statements.run('SELECT n FROM t')).toEqual([{ n: 4 }]);
  });
});

describe('statements.transaction — PostgreSQL only', () => {
  it('holds a transaction-scoped advisory lock until it ends', async () => {
    const db = await database(MODES.find((m) => m.database === 'postgres')!);
    const lock = `SELECT pg_try_advisory_xact_lock(42) AS locked`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const first = db.statements.transaction(async (run) => {
      const [row] = await run<{ locked: boolean }>(lock);
      inside();
      await held;
      return row!.locked;
    });
    await entered;
    const [other] = await db.statements.transaction((run) => run<{ locked: boolean }>(lock));
    expect(other!.locked).toBe(false);
    release();
    expect(await first).toBe(true);
    const [after] = await db.statements.transaction((run) => run<{ locked: boolean }>(lock));
    expect(after!.locked).toBe(true);
  });
});
