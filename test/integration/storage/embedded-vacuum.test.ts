import { describe, expect, it } from 'vitest';
import { MAINTENANCE } from '../../../src/infra/maintenance.js';
import { connectedV1Instance, eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite } from '../../kit/suite.js';

/** The production rhythm, with the pauses short enough for a test: a look every second, a table vacuumed again after 1 s. */
const SWEEPS = { ...MAINTENANCE, idleMs: 1000, vacuumNapMs: 1000 };

interface TableStats {
  /** PostgreSQL's estimate, as autovacuum reads it. */
  live: number;
  dead: number;
  vacuums: number;
  analyzes: number;
}

describe.each(MODES)('database upkeep — $name', (mode) => {
  const statements: string[] = [];
  const suite = gatewaySuite(mode, { infra: { maintenance: SWEEPS, onQuery: (sql) => void statements.push(sql) } });

  const messageTable = async () => {
    const [row] = await suite.gw.gateway.infra.db.prisma.$queryRaw<TableStats[]>`
      SELECT n_live_tup::int AS live, n_dead_tup::int AS dead, vacuum_count::int AS vacuums, analyze_count::int AS analyzes
      FROM pg_stat_user_tables WHERE relname = 'Message'`;
    return row!;
  };

  it(
    mode.name.includes('PostgreSQL')
      ? 'leaves vacuuming to the server: the gateway sends no VACUUM or ANALYZE of its own'
      : 'vacuums and analyzes a table its sends leave dead row versions in, without being asked (PGlite has no autovacuum)',
    async () => {
      const tenant = suite.tenants[0]!;
      const { id } = await connectedV1Instance(suite.api, tenant.liveKey, 'upkeep');
      const before = await messageTable();
      const to = newPhone().slice(1);
      // Each message is written three times (queued, sent, delivered): two dead versions apiece.
      for (let batch = 0; batch < 6; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, n) => suite.api.post(`/v1/messages/send`, { key: tenant.liveKey, body: { to, text: `upkeep ${batch}.${n}` } })),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      }
      await eventually(() => phoneInbox(suite.api, to), (r) => r.body.data.length === 300, 30_000);
      const prisma = suite.gw.gateway.infra.db.prisma;
      await eventually(() => prisma.message.count({ where: { instanceId: id, status: 'delivered' } }), (n) => n === 300, 30_000);

      if (mode.name.includes('PostgreSQL')) {
        expect(statements.filter((sql) => /^\s*(VACUUM|ANALYZE)\b/i.test(sql))).toEqual([]);
        return;
      }
      // 300 messages left ~600 dead versions; vacuumed, at most autovacuum's threshold (50 + 20 % of the live rows) remain.
      const after = await eventually(messageTable, (t) => t.vacuums > before.vacuums && t.dead <= 50 + 0.2 * t.live, 20_000);
      expect(after.analyzes).toBeGreaterThan(before.analyzes);
      expect(statements).toContain('VACUUM (ANALYZE) "Message"');
      // What the vacuum removed was only dead versions: every message still reads as it was left.
      expect(await prisma.message.count({ where: { instanceId: id, status: 'delivered' } })).toBe(300);
    },
    90_000,
  );
});
