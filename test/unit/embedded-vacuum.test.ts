import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { embeddedVacuum } from '../../src/infra/db/embedded-vacuum.js';
import type { Statements } from '../../src/infra/db/statements.js';

/** Statements that record what they were asked to run, failing those `refuse` names. */
function recording(refuse: (sql: string) => boolean = () => false) {
  const ran: string[] = [];
  const statements: Statements = {
    async run(sql: string) {
      ran.push(sql);
      if (refuse(sql)) throw new Error('refused');
      return [];
    },
    transaction: () => Promise.reject(new Error('not used')),
  };
  return { ran, statements };
}

describe('embedded vacuum', () => {
  it('vacuums what is due for it, only analyzes what is only stale, and quotes each name', async () => {
    const { ran, statements } = recording();
    await embeddedVacuum(statements, pino({ level: 'silent' }), 60_000).run([
      { table: 'Message', vacuum: true },
      { table: 'Odd"Name', vacuum: false },
    ]);
    expect(ran).toEqual(['VACUUM (ANALYZE) "Message"', 'ANALYZE "Odd""Name"']);
  });

  it('leaves a table alone for its nap, however its statistics read meanwhile', async () => {
    const { ran, statements } = recording();
    const vacuum = embeddedVacuum(statements, pino({ level: 'silent' }), 60_000);
    await vacuum.run([{ table: 'Message', vacuum: true }]);
    await vacuum.run([{ table: 'Message', vacuum: true }, { table: 'OutboxEvent', vacuum: true }]);
    expect(ran).toEqual(['VACUUM (ANALYZE) "Message"', 'VACUUM (ANALYZE) "OutboxEvent"']);
  });

  it('goes on with the next table when one fails, and tries the failed one again after its nap', async () => {
    const { ran, statements } = recording((sql) => sql.includes('"Message"'));
    const vacuum = embeddedVacuum(statements, pino({ level: 'silent' }), 0);
    await vacuum.run([{ table: 'Message', vacuum: true }, { table: 'OutboxEvent', vacuum: true }]);
    await vacuum.run([{ table: 'Message', vacuum: true }]);
    expect(ran).toEqual(['VACUUM (ANALYZE) "Message"', 'VACUUM (ANALYZE) "OutboxEvent"', 'VACUUM (ANALYZE) "Message"']);
  });
});
