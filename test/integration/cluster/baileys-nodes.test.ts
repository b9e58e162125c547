import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../factories/chat-network.js';
import { eventually, sleep } from '../../factories/sandbox.js';
import { createKey, login } from '../../factories/tenants.js';
import { baileysNodesEnv, type GatewayNode, startNode as startGatewayNode } from '../../kit/worlds/cluster.js';
import { client } from '../../helpers/http.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { type ChatNetwork, startChatNetwork } from '../../networks/chat-network/index.js';

type Node = GatewayNode;

const LEASE_MS = 3000;
const ADMIN = { GATEWAY_ADMIN_EMAIL: 'nodes@example.com', GATEWAY_ADMIN_PASSWORD: 'nodes-password', GATEWAY_ADMIN_PLAN: 'enterprise' };

/**
 * CHAT-BAILEYS on three gateway processes sharing PostgreSQL and Redis: an instance's session lives on
 * its owning node; when that node dies or freezes, another resumes the same linked device from the
 * database, without pairing, and nothing reaches a phone twice.
 */
describe('CHAT-BAILEYS on several nodes', () => {
  let network: ChatNetwork;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: pg.Client;
  let env: Record<string, string>;
  let key: string;
  const nodes: Node[] = [];
  const instances: Array<{ id: string; phone: string }> = [];

  const alive = () => nodes.filter((node) => node.alive);
  const ownerOf = async (instanceId: string) =>
    (await sql.query<{ owner: string | null; token: string }>(`SELECT CASE WHEN "expiresAt" > now() THEN owner END AS owner, token::text FROM "InstanceLease" WHERE "instanceId" = $1`, [instanceId])).rows[0];

  async function startNode(): Promise<Node> {
    const node = await startGatewayNode(env);
    nodes.push(node);
    return node;
  }

  beforeAll(async () => {
    network = await startChatNetwork();
    database = await createTestDatabase({ migrated: true });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    env = baileysNodesEnv(network, database.url, LEASE_MS, ADMIN, { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000', RATE_LIMIT_BURST: '10000' });
    for (let n = 0; n < 3; n++) await startNode();
    const api = client(nodes[0]!.url);
    key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'nodes' });
    // Each instance created and paired through another node; placement spreads them.
    for (let n = 0; n < 6; n++) instances.push(await pairedV1(client(nodes[n % 3]!.url), key, network, `line ${n}`));
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) if (node.alive) await node.kill('SIGKILL').catch(() => {});
    await sql?.end();
    await database?.drop();
    await network?.close();
  });

  /** Sends through one instance (send-text needs a session: the admin's cookie) round-robin over the live nodes. */
  async function sendThrough(instanceId: string, to: string, texts: string[]) {
    const answered: string[] = [];
    for (const [n, text] of texts.entries()) {
      const live = alive();
      const api = client(live[n % live.length]!.url);
      const cookie = await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD).catch(() => undefined);
      if (!cookie) continue;
      const answer = await api.post(`/chat/instances/${instanceId}/send-text`, { cookie, body: { to, message: text } }).catch(() => undefined);
      if (answer?.status === 200) answered.push(text);
      await sleep(25);
    }
    return answered;
  }

  it('kill -9 of the owner under load: another node resumes the session within 10 s without pairing, every answered message reaches the phone once', { timeout: 120_000 }, async () => {
    const target = instances[0]!;
    const lease = await ownerOf(target.id);
    const victim = nodes.find((node) => node.id === lease?.owner)!;
    expect(victim).toBeDefined();
    const to = newNetworkPhone().slice(1);
    const registrationsBefore = network.devices().filter((d) => `+${d.phone}` === target.phone).length;

    const texts = Array.from({ length: 60 }, (_, n) => `under load ${n}`);
    const load = sendThrough(target.id, to, texts);
    await sleep(700);
    victim.alive = false;
    const killedAt = Date.now();
    await victim.kill('SIGKILL');

    // Another node holds the lease and the device is connected again, within 10 s.
    const resumed = await eventually(
      async () => ({ lease: await ownerOf(target.id), connected: network.devices().some((d) => `+${d.phone}` === target.phone && d.connected) }),
      (now) => !!now.lease?.owner && now.lease.owner !== victim.id && now.connected,
      15_000,
    );
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(Number(resumed.lease!.token)).toBeGreaterThan(Number(lease!.token));
    const answered = await load;
    expect(answered.length).toBeGreaterThan(40);

    const inbox = await network.waitForInbox(to, answered.length, 30_000);
    const counts = new Map<string, number>();
    for (const message of inbox) counts.set(message.text!, (counts.get(message.text!) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1), 'received twice').toEqual([]);
    expect(answered.filter((text) => !counts.has(text)), 'answered but never received').toEqual([]);
    // The same linked device, no new pairing; the instance never showed a QR code again.
    expect(network.devices().filter((d) => `+${d.phone}` === target.phone)).toHaveLength(registrationsBefore);
    const qrs = await sql.query(`SELECT count(*)::int AS n FROM "OutboxEvent" WHERE "instanceId" = $1 AND event = 'qr.update' AND "createdAt" > to_timestamp($2 / 1000.0)`, [target.id, killedAt]);
    expect(qrs.rows[0].n).toBe(0);
  });

  it('a SIGSTOPped owner resumed after the takeover hands nothing to the network and does not connect again', { timeout: 120_000 }, async () => {
    const target = instances.find((instance) => instance !== instances[0])!;
    const lease = await ownerOf(target.id);
    const frozen = alive().find((node) => node.id === lease?.owner)!;
    expect(frozen).toBeDefined();
    const owned = (await sql.query<{ id: string }>(`SELECT "instanceId"::text AS id FROM "InstanceLease" WHERE owner = $1 AND "expiresAt" > now()`, [frozen.id])).rows.map((r) => r.id);
    const phones = instances.filter((instance) => owned.includes(instance.id)).map((instance) => instance.phone.slice(1));
    const connectionsBefore = new Set(network.received().map((stanza) => stanza.connectionId));
    process.kill(frozen.pid, 'SIGSTOP');
    frozen.alive = false;
    try {
      // Taken over, and each device connected again from its new owner.
      for (const id of owned) await eventually(async () => (await ownerOf(id))?.owner, (owner) => !!owner && owner !== frozen.id, 20_000);
      for (const phone of phones) await eventually(async () => network.devices().some((d) => d.phone === phone && d.connected), (connected) => connected, 20_000);
      const to = newNetworkPhone().slice(1);
      const answered = await sendThrough(target.id, to, ['while frozen 1', 'while frozen 2']);
      expect(answered).toHaveLength(2);
      await network.waitForInbox(to, 2, 20_000);
    } finally {
      process.kill(frozen.pid, 'SIGCONT');
    }
    const resumedAt = Date.now();
    // Long enough for its timers to fire, its renewals to fail and its sockets to notice.
    await sleep(LEASE_MS * 2);
    frozen.alive = true;
    // Nothing it held before it froze carried a message after it resumed, and it logged none of its former devices in again.
    const late = network.received().filter((stanza) => connectionsBefore.has(stanza.connectionId) && stanza.at.getTime() >= resumedAt && phones.includes(stanza.phone));
    expect(late).toEqual([]);
    for (const phone of phones) expect(network.loginAttempts(phone).filter((at) => at >= resumedAt), `logins of ${phone} after the resume`).toEqual([]);
    const staleLeases = await sql.query(`SELECT count(*)::int AS n FROM "InstanceLease" WHERE owner = $1 AND "expiresAt" > now() AND "instanceId" = ANY($2::uuid[])`, [frozen.id, owned]);
    expect(staleLeases.rows[0].n).toBe(0);
    for (const phone of phones) expect(network.devices().some((d) => d.phone === phone && d.connected)).toBe(true);
  });
});
