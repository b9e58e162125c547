import { describe, expect, it } from 'vitest';
import { eventually } from '../../factories/sandbox.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite } from '../../kit/suite.js';

/**
 * Claims of pending media (docs/media.md, "Retries"): two claims at once never share a message,
 * a claimed message is nobody else's until its lease ends, and a due one is claimable again. The
 * gateway keeps no media itself here (MEDIA_STORE=off): only these claims touch the rows.
 */
describe.each(MODES)('claims of media to keep — $name', (mode) => {
  const suite = gatewaySuite(mode, { env: { MEDIA_STORE: 'off' } });

  async function pending(count: number) {
    const prisma = suite.gw.gateway.infra.db.prisma;
    const tenantId = suite.tenants[0]!.tenantId;
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const row = await prisma.message.create({
        data: { tenantId, direction: 'out', to: '5511999990000', type: 'image', mediaType: 'image/png', mediaUrl: 'https://files.example.com/a.png', status: 'queued', mode: 'production', queuedAt: new Date(), mediaState: 'pending' },
      });
      ids.push(row.id);
    }
    return ids;
  }

  it('two claims at once share no message; together they take every due one, once', async () => {
    const kept = suite.gw.gateway.infra.ports.keptMedia;
    const ids = await pending(12);
    expect(await kept.anyDue()).toBe(true);
    const [first, second] = await Promise.all([kept.claim({ limit: 8, leaseMs: 60_000 }), kept.claim({ limit: 8, leaseMs: 60_000 })]);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    expect([...first, ...second].sort()).toEqual([...ids].sort());
    // Claimed for a minute: nothing is due, one by id included.
    expect(await kept.anyDue()).toBe(false);
    expect(await kept.claim({ limit: 8, leaseMs: 60_000 })).toEqual([]);
    expect(await kept.claim({ messageId: ids[0], limit: 1, leaseMs: 60_000 })).toEqual([]);
  });

  it('a lease that ended makes the message claimable again; a stored or failed one never is', async () => {
    const kept = suite.gw.gateway.infra.ports.keptMedia;
    const prisma = suite.gw.gateway.infra.db.prisma;
    const [lapsed, stored, failed] = await pending(3);
    expect((await kept.claim({ messageId: lapsed, limit: 1, leaseMs: 1 })).length).toBe(1);
    await prisma.message.update({ where: { id: stored }, data: { mediaState: 'stored' } });
    await prisma.message.update({ where: { id: failed }, data: { mediaState: 'failed' } });
    await eventually(() => kept.anyDue(), Boolean);
    expect(await kept.claim({ limit: 10, leaseMs: 60_000 })).toEqual([lapsed]);
  });
});
