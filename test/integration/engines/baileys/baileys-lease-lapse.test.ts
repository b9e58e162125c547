import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { LEASE_CHECK } from '../../../../src/engines/baileys/auth-state.js';

const postgres = MODES.find((mode) => mode.database === 'postgres')!;
/** The owner's look at its lease right before a hand-off (src/engines/baileys/auth-state.ts, `holds`). */
const isLeaseCheck = (sql: string) => sql === LEASE_CHECK;

/**
 * A renewal that began before the lease ended and waited for its row commits after it, with the same
 * token. A hand-off that looked in that moment must hand nothing over and leave the connection as it was.
 */
describe(`CHAT-BAILEYS: a lease that lapsed for a moment and was renewed — ${postgres.name}`, () => {
  const queries: string[] = [];
  const world = baileysWorld(postgres, {
    infra: { onQuery: (sql) => void queries.push(sql) },
    // A renewal waiting for a held row waits until the test lets it go, not only the default 5 s: the
    // moment each test makes lasts as long as its steps take on a loaded machine.
    env: { DATABASE_STATEMENT_TIMEOUT_MS: '60000' },
  });

  /**
   * Over a connection of the test's own: the instance's lease made to end `endsIn` from now, its row
   * then held in a transaction (`lock`) until the test commits it.
   */
  async function holdLease(instanceId: string, endsIn: string, lock: 'UPDATE' | 'KEY SHARE') {
    const outside = new pg.Client({ connectionString: world.gw.env.DATABASE_URL });
    await outside.connect();
    const lease = () => outside.query<{ token: string; lapsed: boolean }>(`SELECT token::text, "expiresAt" <= clock_timestamp() AS lapsed FROM "InstanceLease" WHERE "instanceId" = $1::uuid`, [instanceId]);
    try {
      const token = (await lease()).rows[0]!.token;
      await outside.query(`UPDATE "InstanceLease" SET "expiresAt" = now() + $2::interval WHERE "instanceId" = $1::uuid`, [instanceId, endsIn]);
      await outside.query('BEGIN');
      await outside.query(`SELECT 1 FROM "InstanceLease" WHERE "instanceId" = $1::uuid FOR ${lock}`, [instanceId]);
      return { outside, lease, token };
    } catch (error) {
      await outside.end();
      throw error;
    }
  }

  it('a send that found the lease lapsed goes out once the lease is renewed, on the same connection', { timeout: 60_000 }, async () => {
    const key = world.tenant.liveKey;
    const instance = await pairedV1(world.api, key, world.network, `lapse ${Date.now()}`);
    const logins = world.network.stats().logins;
    // The lease ends in a moment, and its row is held meanwhile: a round that began before it ended
    // waits for the row, as a late renewal waits for a write's lock (one that begins after it ended
    // finds it lapsed and places the instance again, under a new token).
    const { outside, lease, token } = await holdLease(instance.id, '300 milliseconds', 'UPDATE');
    try {
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

  it('a reconnect that found the lease lapsed logs nothing in and tries again; once the lease is renewed it logs in, without pairing again', { timeout: 60_000 }, async () => {
    const key = world.tenant.liveKey;
    const instance = await pairedV1(world.api, key, world.network, `lapse on reconnect ${Date.now()}`);
    // The row is held with a key-share lock (the link's fenced writes still go through) while the lease
    // is current; a new instance makes the node run a round at once, whose renewal waits for the row.
    // The lease ends while it waits: the moment a late renewal leaves.
    const { outside, lease, token } = await holdLease(instance.id, '1 minute', 'KEY SHARE');
    const ender = new pg.Client({ connectionString: world.gw.env.DATABASE_URL });
    await ender.connect();
    try {
      // Its answer waits for an owner, so for the round: it is read once the row is let go.
      const created = world.api.post('/v1/chat/instances', { key, body: { name: `wakes placement ${Date.now()}` } });
      // Seen waiting, the round began while the lease was current, however slowly the machine runs.
      const roundsWaiting = () =>
        ender.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND starts_with(ltrim(query, E' \n'), 'WITH beat AS')`);
      await eventually(roundsWaiting, (result) => result.rows[0]!.n > 0);
      // Ended and committed beside the held lock (a write of the lease's end takes no lock it conflicts
      // with), so the link's own look at the lease finds it lapsed.
      await ender.query(`UPDATE "InstanceLease" SET "expiresAt" = clock_timestamp() WHERE "instanceId" = $1::uuid`, [instance.id]);
      await eventually(lease, (result) => result.rows[0]!.lapsed);

      const checks = queries.filter(isLeaseCheck).length;
      const logins = world.network.loginAttempts(instance.phone).length;
      const linked = () => world.network.devices().filter((device) => `+${device.phone}` === instance.phone);
      const devices = linked().map((device) => device.jid);
      expect(devices).toHaveLength(1);
      // The network drops the device; the link's reconnect looks at its lease, finds it lapsed, and
      // logs nothing in: a device logged in now could knock off a new owner's.
      expect(world.network.streamError(instance.phone, 408)).toBe(1);
      await eventually(async () => queries.filter(isLeaseCheck).length, (n) => n > checks);
      expect(world.network.loginAttempts(instance.phone)).toHaveLength(logins);

      // The waiting round renews the lease under the same token once the row is let go.
      await outside.query('COMMIT');
      expect((await created).status).toBe(201);
      await eventually(() => world.api.get(`/v1/chat/instances/${instance.id}`, { key }), (r) => r.body.data.status === 'connected', 30_000);
      expect(world.network.loginAttempts(instance.phone).length).toBeGreaterThan(logins);
      // The same lease, the same device: logged in with what it kept, not paired again.
      expect((await lease()).rows[0]!.token).toBe(token);
      expect(linked().map((device) => ({ jid: device.jid, connected: device.connected }))).toEqual([{ jid: devices[0], connected: true }]);
    } finally {
      await outside.end();
      await ender.end();
    }
  });
});
