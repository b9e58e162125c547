import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedRows } from '../../src/infra/db/embedded-thread/prepared-rows.js';

/** The embedded thread's hot statements, on a real PGlite in memory. */
describe('prepared statements on PGlite', () => {
  let pglite: PGlite;
  let hot: ReturnType<typeof preparedRows>;
  const prepared = async () => (await pglite.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((row) => row.name);

  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.exec(`
      CREATE TABLE item (id uuid PRIMARY KEY, at timestamptz, doc jsonb, note text, n int8);
      CREATE TABLE wide (id int PRIMARY KEY);`);
    hot = preparedRows(pglite);
  });
  afterAll(() => pglite.close());

  it('reads and writes with the driver types, the same statement over and over, prepared once', async () => {
    const insert = 'INSERT INTO item SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(id uuid, at timestamptz, doc jsonb, note text, n int8) RETURNING id, at, doc, note, n';
    const ids: string[] = [];
    // Past five runs PostgreSQL may switch to a generic plan: the answers must not change with it.
    for (let run = 0; run < 8; run++) {
      const id = `00000000-0000-4000-8000-00000000000${run}`;
      ids.push(id);
      const rows = await hot.rows(insert, [JSON.stringify([{ id, at: '2026-11-28T10:00:00.000Z', doc: { run }, note: run % 2 ? null : `note ${run}`, n: run }])], false);
      expect(rows).toEqual([{ id, at: new Date('2026-11-28T10:00:00.000Z'), doc: { run }, note: run % 2 ? null : `note ${run}`, n: run }]);
    }
    const read = await hot.rows('SELECT id, n FROM item WHERE id = ANY($1::uuid[]) AND at <= $2 ORDER BY n', [ids.slice(2, 4), new Date('2026-11-28T11:00:00.000Z')], false);
    expect(read).toEqual([
      { id: ids[2], n: 2 },
      { id: ids[3], n: 3 },
    ]);
    expect(await prepared()).toEqual(['mgw_0', 'mgw_1']);
  });

  it("answers a statement's error with its SQLSTATE, and the next statement runs as usual", async () => {
    const insert = 'INSERT INTO item (id, n) VALUES ($1, $2) RETURNING n';
    const id = '10000000-0000-4000-8000-000000000000';
    await hot.rows(insert, [id, 1], false);
    await expect(hot.rows(insert, [id, 2], false)).rejects.toMatchObject({ code: '23505' });
    // A bind that PostgreSQL refuses (not a uuid) fails alone too.
    await expect(hot.rows(insert, ['not a uuid', 3], false)).rejects.toMatchObject({ code: '22P02' });
    expect(await hot.rows(insert, ['10000000-0000-4000-8000-000000000001', 4], false)).toEqual([{ n: 4 }]);
    expect(pglite.isInTransaction()).toBe(false);
  });

  it('prepares a statement again when the table under its `SELECT *` changed', async () => {
    const read = 'SELECT * FROM wide WHERE id = $1';
    await pglite.exec('INSERT INTO wide VALUES (1)');
    expect(await hot.rows(read, [1], false)).toEqual([{ id: 1 }]);
    await pglite.exec("ALTER TABLE wide ADD COLUMN label text DEFAULT 'new'");
    expect(await hot.rows(read, [1], false)).toEqual([{ id: 1, label: 'new' }]);
  });

  it("waits for an open transaction before a statement of its own, and runs a transaction's statements inside it", async () => {
    const id = '20000000-0000-4000-8000-000000000000';
    let rollBack!: () => void;
    let inside!: (rows: unknown[]) => void;
    const seenInside = new Promise<unknown[]>((resolve) => (inside = resolve));
    const transaction = pglite.transaction(async () => {
      await hot.rows('INSERT INTO item (id, n) VALUES ($1, $2)', [id, 7], true);
      inside(await hot.rows('SELECT n FROM item WHERE id = $1', [id], true));
      await new Promise<void>((resolve) => (rollBack = resolve));
      throw new Error('rolled back');
    });
    expect(await seenInside).toEqual([{ n: 7 }]);
    // Asked while the transaction is open: had it run inside, it would see the row the rollback removes.
    const outside = hot.rows('SELECT n FROM item WHERE id = $1', [id], false);
    rollBack();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await outside).toEqual([]);
  });

  it('keeps at most 64 statements prepared; a text past them runs all the same', async () => {
    for (let n = 0; n < 70; n++) expect(await hot.rows(`SELECT $1::int + ${n} AS x`, [1], false)).toEqual([{ x: 1 + n }]);
    expect((await prepared()).length).toBe(64);
    // The texts past the limit are not kept: they run again, still right.
    expect(await hot.rows('SELECT $1::int + 69 AS x', [2], false)).toEqual([{ x: 71 }]);
    expect((await prepared()).length).toBe(64);
  });
});
