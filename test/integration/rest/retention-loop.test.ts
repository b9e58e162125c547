import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/infra/db/database.js';
import { createRetention, type PassTimer } from '../../../src/infra/db/retention.js';
import { eventually } from '../../factories/sandbox.js';
import { type Mode, MODES } from '../../kit/modes.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { seedPgliteDataDir, testDataDir } from '../../kit/templates.js';

const DAY = 86_400_000;
const MINUTE = 60_000;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A migrated database of the mode, as a gateway opens it. */
async function migrated(mode: Mode): Promise<Database> {
  if (mode.database === 'postgres') {
    const created = await createTestDatabase({ migrated: true });
    cleanups.push(created.drop);
    const db = openDatabase({ databaseUrl: created.url, dataDir: 'memory://' });
    cleanups.push(() => db.close());
    return db;
  }
  const dataDir = testDataDir();
  expect(seedPgliteDataDir(dataDir)).toBe(true);
  const db = openDatabase({ dataDir });
  cleanups.push(() => db.close());
  return db;
}

// The pace itself is computed in retentionPace (test/unit/retention-pace.test.ts); this is the loop that
// follows it, against a real database, with a timer that records each wait instead of living through it.
describe.each(MODES)('the retention sweep\'s loop — $name', (mode) => {
  it('waits longer after each pass that deletes nothing, up to the idle wait, and is back to a pass a minute once one deletes', async () => {
    const db = await migrated(mode);
    const waits: number[] = [];
    let due: (() => void) | undefined;
    const timer: PassTimer = (pass, ms) => {
      waits.push(ms);
      due = pass;
      return () => (due = undefined);
    };
    const deleted: Array<[string, number]> = [];
    const retention = createRetention({
      statements: db.statements,
      settings: { messages: 90 * DAY, deliveries: 30 * DAY, connections: 30 * DAY },
      observer: { deleted: (table, rows) => deleted.push([table, rows]), swept: () => {} },
      logger: pino({ level: 'silent' }),
      timer,
    });
    /** Runs the pass that is due, and waits until the loop has set the next wait. */
    const passAndNextWait = async () => {
      const before = waits.length;
      const pass = due!;
      due = undefined;
      pass();
      await eventually(async () => waits.length, (n) => n > before);
      return waits.at(-1);
    };

    retention.start();
    expect(waits).toEqual([MINUTE]);
    for (let i = 0; i < 4; i++) await passAndNextWait();
    expect(waits).toEqual([MINUTE, 2 * MINUTE, 4 * MINUTE, 5 * MINUTE, 5 * MINUTE]);
    expect(deleted).toEqual([]);

    // A record past its retention: the next pass deletes it, and the loop is back to its busy pace.
    await db.statements.run(`INSERT INTO "SandboxSignal" ("instanceId", "from", "to", kind, at) VALUES ($1::uuid, '1', '2', 'read', $2)`, [
      randomUUID(),
      new Date(Date.now() - 91 * DAY),
    ]);
    expect(await passAndNextWait()).toBe(MINUTE);
    expect(deleted).toEqual([['SandboxSignal', 1]]);
    expect(await passAndNextWait()).toBe(2 * MINUTE);

    await retention.stop();
    expect(due).toBeUndefined();
  });
});
