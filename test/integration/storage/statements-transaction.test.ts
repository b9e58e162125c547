import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../factories/sandbox.js';
import { type Database, openDatabase } from '../../../src/infra/db/database.js';
import { type Mode, MODES } from '../../kit/modes.js';
import { createTestDatabase } from '../../kit/postgres.js';

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

describe('statements.run — PostgreSQL only', () => {
  it('runs a statement again when PostgreSQL ends it to break a lock cycle, and answers what the second run did', async () => {
    const created = await createTestDatabase();
    cleanups.push(created.drop);
    // The gateway's connections look for a cycle 2 s into a wait; the other side's never look (60 s),
    // so the gateway's statement is the side PostgreSQL ends, whatever the machine's load.
    const admin = new pg.Client({ connectionString: created.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${new URL(created.url).pathname.slice(1)} SET deadlock_timeout = '2s'`);
    await admin.end();
    const db = openDatabase({ databaseUrl: created.url, dataDir: 'memory://' });
    cleanups.push(() => db.close());
    await db.statements.run('CREATE TABLE r (n int PRIMARY KEY, v int NOT NULL)');
    await db.statements.run('INSERT INTO r VALUES (1, 0), (2, 0)');

    const other = new pg.Client({ connectionString: created.url });
    await other.connect();
    cleanups.push(() => other.end());
    await other.query(`SET deadlock_timeout = '60s'`);
    const { rows } = await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await other.query('BEGIN');
    await other.query('UPDATE r SET v = v + 10 WHERE n = 1');
    // The statement takes row 2, then waits for row 1, which the other transaction holds.
    const statement = db.statements.run<{ n: number }>(
      'WITH second AS (UPDATE r SET v = v + 1 WHERE n = 2 RETURNING n) UPDATE r SET v = v + 1 WHERE n = 1 AND EXISTS (SELECT 1 FROM second) RETURNING n',
    );
    const watcher = new pg.Client({ connectionString: created.url });
    await watcher.connect();
    cleanups.push(() => watcher.end());
    const waitingForOther = async () =>
      (await watcher.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [rows[0]!.pid])).rows[0]!.n;
    await eventually(waitingForOther, (n) => n > 0);
    // Now the other side waits for row 2: a cycle. PostgreSQL ends the statement, which frees row 2.
    await other.query('UPDATE r SET v = v + 10 WHERE n = 2');
    await other.query('COMMIT');

    expect(await statement).toEqual([{ n: 1 }]);
    // Each side's change counted once: the ended run changed nothing.
    expect(await db.statements.run('SELECT n, v FROM r ORDER BY n')).toEqual([{ n: 1, v: 11 }, { n: 2, v: 11 }]);
  });
});

