import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../factories/chat-network.js';
import { eventually } from '../factories/sandbox.js';
import { MODES } from '../helpers/modes.js';
import { baileysWorld } from '../worlds/baileys.js';

const postgres = MODES.find((mode) => mode.database === 'postgres')!;
/** The owner's look at its lease right before a hand-off (src/engines/baileys/auth-state.ts, `holds`). */
const isLeaseCheck = (sql: string) => sql.startsWith('SELECT 1 FROM "InstanceLease"') && sql.includes('"expiresAt" > now()');

/**
 * A lease can lapse for a moment and be renewed with the same token: a renewal whose transaction began
 * before the lease ended, and waited for the lease's row, commits after it (a late round on a loaded
 * machine). A hand-off that looked at the lease in that moment must hand nothing over and leave the
 * connection as it was, not let the instance go for good.
 */
describe(`CHAT-BAILEYS: a lease that lapsed for a moment and was renewed — ${postgres.name}`, () => {
  const queries: string[] = [];
  const world = baileysWorld(postgres, { infra: { onQuery: (sql) => void queries.push(sql) } });

  it('a send that found the lease lapsed goes out once the lease is renewed, on the same connection', { timeout: 60_000 }, async () => {
    const key = world.tenant.liveKey;
    const instance = await pairedV1(world.api, key, world.network, `lapse ${Date.now()}`);
    const logins = world.network.stats().logins;
    const outside = new pg.Client({ connectionString: world.gw.env.DATABASE_URL });
    await outside.connect();
    try {
      const lease = () => outside.query<{ token: string; lapsed: boolean }>(`SELECT token::text, "expiresAt" <= clock_timestamp() AS lapsed FROM "InstanceLease" WHERE "instanceId" = $1::uuid`, [instance.id]);
      const token = (await lease()).rows[0]!.token;
      // The lease ends in a moment, and its row is held meanwhile: a round that comes now waits for it,
      // as a late renewal waits for a write's lock, instead of placing the instance again.
      await outside.query(`UPDATE "InstanceLease" SET "expiresAt" = now() + interval '300 milliseconds' WHERE "instanceId" = $1::uuid`, [instance.id]);
      await outside.query('BEGIN');
      await outside.query(`SELECT 1 FROM "InstanceLease" WHERE "instanceId" = $1::uuid FOR UPDATE`, [instance.id]);
      await eventually(lease, (result) => result.rows[0]!.lapsed);

      const checks = queries.filter(isLeaseCheck).length;
      const to = newNetworkPhone().slice(1);
      const sent = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to, text: 'across the lapse' } });
      expect(sent.status, sent.text).toBe(200);
      // The owner looked at the lapsed lease and handed nothing over.
      await eventually(async () => queries.filter(isLeaseCheck).length, (n) => n > checks);
      expect(world.network.inbox(to)).toHaveLength(0);

      // Renewed under the same token, as the waiting round then does.
      await outside.query(`UPDATE "InstanceLease" SET "expiresAt" = clock_timestamp() + interval '1 minute' WHERE "instanceId" = $1::uuid`, [instance.id]);
      await outside.query('COMMIT');
      await world.network.waitFor(() => world.network.inbox(to).length > 0, 30_000, 'the message arrives');
      expect(world.network.inbox(to).map((message) => message.text)).toEqual(['across the lapse']);
      expect((await lease()).rows[0]!.token).toBe(token);
      // The connection carried on: no new login.
      expect(world.network.stats().logins).toBe(logins);
      expect((await world.api.get(`/v1/chat/instances/${instance.id}`, { key })).body.data.status).toBe('connected');
    } finally {
      await outside.end();
    }
  });
});
