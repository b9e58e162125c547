import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../../src/infra/qr-decode.js';
import { eventually, newPhone, sleep } from '../../factories/sandbox.js';
import { createKey, createTenant, type TestTenant } from '../../factories/tenants.js';
import { ConnectionUpdated } from '../../graphql/operations.js';
import { startChildGateway } from '../../kit/process.js';
import { startTestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES, REDIS_URL } from '../../kit/modes.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { startReceiver } from '../../helpers/receiver.js';
import { heldSend } from '../../helpers/held-request.js';
import { subscribe, wsClient } from '../../helpers/subscriptions.js';

type Node = Awaited<ReturnType<typeof startChildGateway>> & { id: string; alive: boolean };

const LEASE_MS = 5000;
const RENEWAL_MS = LEASE_MS / 3;
const destinations = Array.from({ length: 30 }, () => newPhone().slice(1));

/**
 * Several gateway processes on one PostgreSQL and one Redis: one owner per instance, work routed to
 * the owner, takeovers after kill -9 and SIGTERM, a frozen node fenced off.
 */
describe('several nodes on one PostgreSQL and Redis', () => {
  const postgresRedis = MODES.find((m) => m.redis)!;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: pg.Client;
  let env: Record<string, string>;
  const nodes: Node[] = [];
  const tenants: TestTenant[] = [];
  const instances: Array<{ id: string; tenant: number }> = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const query = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await sql.query(text, params)).rows as T[];
  const alive = () => nodes.filter((n) => n.alive);

  async function startNode(extra: Record<string, string> = {}): Promise<Node> {
    const child = await startChildGateway({ ...env, ...extra });
    const ready = await client(child.url).get('/readyz');
    const node = { ...child, id: ready.body.data.node as string, alive: true };
    nodes.push(node);
    return node;
  }

  async function stopNode(node: Node, signal: NodeJS.Signals) {
    node.alive = false;
    await node.kill(signal);
  }

  /** Every instance with an unexpired lease held by a live node, and its state. */
  const leases = () =>
    query<{ id: string; state: string; owner: string | null; token: string | null }>(
      `SELECT i.id::text, i.state::text, CASE WHEN l."expiresAt" > now() THEN l.owner END AS owner, l.token::text AS token
       FROM "Instance" i LEFT JOIN "InstanceLease" l ON l."instanceId" = i.id WHERE i.id = ANY($1::uuid[])`,
      [instances.map((i) => i.id)],
    );

  /** Sends `count` routed messages of the three tenants with instances, round-robin over the nodes alive at each send. */
  async function sendLoad(count: number, options: { concurrency?: number; onAnswer?: (answered: number) => void } = {}) {
    const results: Array<{ status: number; id?: string; tenant: number }> = [];
    let next = 0;
    let answered = 0;
    async function worker() {
      while (next < count) {
        const i = next++;
        const live = alive();
        const node = live[i % live.length]!;
        const tenant = i % 3;
        const response = await client(node.url)
          .post('/v1/messages/send', { key: tenants[tenant]!.liveKey, body: { to: destinations[i % destinations.length], text: `load ${i}` } })
          .catch(() => undefined);
        results.push({ status: response?.status ?? 0, id: response?.body?.data?.id, tenant });
        options.onAnswer?.(++answered);
      }
    }
    await Promise.all(Array.from({ length: options.concurrency ?? 40 }, worker));
    return results;
  }

  /** Waits until nothing is queued, then checks each phone's inbox (from any node): every answered message exactly once. */
  async function expectDeliveredExactlyOnce(answeredIds: string[]) {
    await eventually(
      () => query<{ n: number }>(`SELECT count(*)::int AS n FROM "Message" WHERE direction = 'out' AND status = 'queued'`),
      (rows) => rows[0]!.n === 0,
      30_000,
    );
    const seen = new Map<string, number>();
    for (const [i, phone] of destinations.entries()) {
      const node = alive()[i % alive().length]!;
      const inbox = await client(node.url).get(`/sandbox/phones/${phone}/messages`);
      expect(inbox.status).toBe(200);
      for (const entry of inbox.body.data as Array<{ id: string }>) seen.set(entry.id, (seen.get(entry.id) ?? 0) + 1);
    }
    const doubled = [...seen].filter(([, n]) => n > 1);
    expect(doubled, 'messages a phone received more than once').toEqual([]);
    const missing = answeredIds.filter((id) => !seen.has(id));
    expect(missing, 'answered messages no phone received').toEqual([]);
  }

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    receiver = await startReceiver();
    env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `mgwnodes:${randomBytes(4).toString('hex')}:`,
      NODE_LEASE_MS: String(LEASE_MS),
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_HOUR: '10000000',
      RATE_LIMIT_BURST: '10000',
      DAILY_MESSAGES_PRO: '1000000',
      SHUTDOWN_DRAIN_MS: '0',
      WEBHOOK_ALLOW_INSECURE: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_RETRY_DELAYS: '0,1,2,5',
      SANDBOX_RECONNECT_DELAY_MS: '1000',
    };
    // Tenants are made by a gateway in this process, which then stops: the nodes under test are processes.
    const setup = await startTestGateway(postgresRedis, { reuse: { env: { DATABASE_URL: database.url } }, env });
    const api = client(setup.url);
    for (const plan of ['enterprise', 'enterprise', 'pro', 'starter'] as const) tenants.push(await createTenant(setup.gateway, api, plan));
    await setup.close();

    await Promise.all([startNode(), startNode(), startNode()]);
    // 20 instances over 3 tenants, each created, shown and scanned through three different nodes.
    for (let i = 0; i < 20; i++) {
      const tenant = i % 4 === 3 ? 2 : i % 2;
      const [a, b, c] = [nodes[i % 3]!, nodes[(i + 1) % 3]!, nodes[(i + 2) % 3]!];
      const key = tenants[tenant]!.liveKey;
      const webhook = tenant === 0 ? { webhookUrl: `${receiver.url}/hook`, webhookEvents: ['messages.update'] } : {};
      const created = await client(a.url).post('/v1/chat/instances', { key, body: { name: `line ${i}`, ...webhook } });
      expect(created.status, created.text).toBe(201);
      const qr = await client(b.url).get(`/v1/chat/instances/${created.body.data.id}/qr`, { key });
      const scan = await client(c.url).post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode), phone: newPhone() } });
      expect(scan.status).toBe(200);
      instances.push({ id: created.body.data.id, tenant });
    }
    await eventually(leases, (rows) => rows.every((r) => r.state === 'connected' && r.owner !== null), 15_000);
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) if (node.alive) await node.kill('SIGTERM').catch(() => {});
    await receiver?.close();
    await sql?.end();
    await database?.drop();
  });

  it('gives every instance exactly one owner, spread over the nodes, and shows the node set on /readyz of any node', async () => {
    const rows = await leases();
    const owners = new Set(rows.map((r) => r.owner));
    expect(owners.size, 'instances spread over more than one node').toBeGreaterThan(1);
    for (const owner of owners) expect(nodes.map((n) => n.id)).toContain(owner);
    for (const node of nodes) {
      const ready = await client(node.url).get('/readyz');
      expect(ready.body.data.node).toBe(node.id);
      const listed = ready.body.data.nodes as Array<{ id: string; instances: number; lastSeen: string }>;
      expect(listed.map((n) => n.id).sort()).toEqual(nodes.map((n) => n.id).sort());
      for (const entry of listed) {
        expect(entry.instances).toBe(rows.filter((r) => r.owner === entry.id).length);
        expect(Date.now() - Date.parse(entry.lastSeen)).toBeLessThan(LEASE_MS);
      }
    }
  });

  it('delivers 3,000 sends spread round-robin over 3 nodes to their phones exactly once, none left queued', async () => {
    const results = await sendLoad(3000);
    const answered = results.filter((r) => r.status === 200);
    expect(answered).toHaveLength(3000);
    await expectDeliveredExactlyOnce(answered.map((r) => r.id!));
  }, 120_000);

  it('keeps plan instance limits exact with creates spread over the nodes', async () => {
    const starter = tenants[3]!;
    const attempts = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        client(nodes[i % 3]!.url).post('/v1/chat/instances', { key: starter.liveKey, body: { name: `starter ${i}` } }),
      ),
    );
    const created = attempts.filter((r) => r.status === 201);
    const refused = attempts.filter((r) => r.status !== 201);
    const n = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM "Instance" WHERE "tenantId" = $1`, [starter.tenantId]))[0]!.n;
    expect(created.length).toBe(n);
    expect(n).toBeGreaterThan(0);
    expect(refused.length).toBe(9 - n);
    for (const response of refused) expect(response.body.error.code).toBe('instance_limit_reached');
  });

  it('shows a subscriber on one node the connection changes the owner makes, for a drop reported through a third node', async () => {
    const rows = await leases();
    const target = rows.find((r) => r.owner)!;
    const owner = nodes.find((n) => n.id === target.owner)!;
    const [watcher, reporter] = nodes.filter((n) => n !== owner && n.alive);
    const tenant = tenants[instances.find((i) => i.id === target.id)!.tenant]!;
    const ws = wsClient(watcher!.url, { key: tenant.liveKey });
    try {
      const statuses = subscribe(ws, ConnectionUpdated, { instanceId: target.id });
      // The current status comes once the subscription is attached to the feed: every change after it is seen.
      const seen: string[] = [(await statuses.next(10_000)).data!.connectionUpdated.status];
      const dropped = await client(reporter!.url).post(`/sandbox/instances/${target.id}/drop`);
      expect(dropped.status).toBe(200);
      while (seen.length < 4) seen.push((await statuses.next(10_000)).data!.connectionUpdated.status);
      expect(seen).toEqual(['connected', 'disconnected', 'connecting', 'connected']);
      await statuses.stop();
    } finally {
      await ws.dispose();
    }
  });

  it('after a SIGSTOP long enough to lose its leases, a resumed node writes and sends nothing with its stale token', async () => {
    const before = await leases();
    const frozen = alive().find((n) => before.some((r) => r.owner === n.id))!;
    const mine = before.filter((r) => r.owner === frozen.id);
    process.kill(frozen.pid, 'SIGSTOP');
    const stoppedAt = new Date();
    let resumed = false;
    try {
      const others = alive().filter((n) => n !== frozen);
      const load = (async () => {
        const ids: string[] = [];
        // Sends through the other nodes keep going while the node is frozen and after it resumes.
        for (let round = 0; round < 40; round++) {
          for (const node of others) {
            const response = await client(node.url).post('/v1/messages/send', { key: tenants[round % 2]!.liveKey, body: { to: destinations[round % 30], text: `frozen ${round}` } });
            if (response.status === 200) ids.push(response.body.data.id);
          }
          await sleep(200);
        }
        return ids;
      })();
      const moved = await eventually(leases, (rows) => mine.every((m) => rows.find((r) => r.id === m.id)!.owner !== null && rows.find((r) => r.id === m.id)!.owner !== frozen.id), 15_000);
      const takenOverAt = new Date();
      for (const m of mine) expect(BigInt(moved.find((r) => r.id === m.id)!.token!)).toBeGreaterThan(BigInt(m.token!));
      process.kill(frozen.pid, 'SIGCONT');
      resumed = true;
      const ids = await load;
      await sleep(RENEWAL_MS * 2);
      // Nothing handed to the network by the frozen node since it was stopped (its lease was taken over).
      const stale = await query(`SELECT * FROM "SandboxHandoff" WHERE node = $1 AND "handedAt" > $2`, [frozen.id, stoppedAt]);
      expect(stale).toEqual([]);
      // It did not take its instances back, and the survivors kept them.
      const after = await leases();
      for (const m of mine) expect(after.find((r) => r.id === m.id)!.owner).toBe(moved.find((r) => r.id === m.id)!.owner);
      expect(takenOverAt.getTime() - stoppedAt.getTime()).toBeLessThan(10_000);
      await expectDeliveredExactlyOnce(ids);
      // It noticed: its /readyz no longer counts them as its own.
      const ready = await client(frozen.url).get('/readyz');
      const self = (ready.body.data.nodes as Array<{ id: string; instances: number }>).find((n) => n.id === frozen.id);
      expect(self?.instances ?? 0).toBe(after.filter((r) => r.owner === frozen.id).length);
    } finally {
      if (!resumed) process.kill(frozen.pid, 'SIGCONT');
    }
  }, 60_000);

  it('kill -9 of the busiest node under load: its instances are connected under survivors within 10 s, answered messages delivered once, webhooks at least once', async () => {
    const rows = await leases();
    const counts = new Map<string, number>();
    for (const r of rows) if (r.owner) counts.set(r.owner, (counts.get(r.owner) ?? 0) + 1);
    const busiest = alive().sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0))[0]!;
    let takeover: Promise<number> | undefined;
    const results = await sendLoad(3000, {
      onAnswer: (answered) => {
        if (answered !== 1000) return;
        const killedAt = Date.now();
        // Watched while the load goes on.
        takeover = stopNode(busiest, 'SIGKILL')
          .then(() =>
            eventually(
              leases,
              (now) => now.every((r) => r.state === 'connected' && r.owner !== null && r.owner !== busiest.id && alive().some((n) => n.id === r.owner)),
              15_000,
            ),
          )
          .then(() => Date.now() - killedAt);
      },
    });
    expect(await takeover, 'every instance connected under a surviving node (ms after the kill)').toBeLessThan(10_000);

    const answered = results.filter((r) => r.status === 200);
    expect(answered.length).toBeGreaterThan(1000);
    await expectDeliveredExactlyOnce(answered.map((r) => r.id!));

    // Webhooks: every answered message of the hooked tenant reported `sent` at least once; a repeat keeps its X-Webhook-Id and body.
    const hooked = answered.filter((r) => r.tenant === 0).map((r) => r.id!);
    const sentReported = () => {
      const ids = new Set<string>();
      for (const delivery of receiver.of('messages.update')) {
        const body = JSON.parse(delivery.body);
        if (body.data.status === 'sent') ids.add(body.data.messageId);
      }
      return ids;
    };
    await eventually(async () => sentReported(), (ids) => hooked.every((id) => ids.has(id)), 45_000);
    const bodies = new Map<string, string>();
    for (const delivery of receiver.received) {
      const id = String(delivery.headers['x-webhook-id']);
      if (bodies.has(id)) expect(delivery.body).toBe(bodies.get(id));
      bodies.set(id, delivery.body);
    }
  }, 150_000);

  it('SIGTERM: the node hands its instances over at once, none shows disconnected', async () => {
    const spare = await startNode();
    const rows = await leases();
    const leaving = alive().filter((n) => n !== spare).find((n) => rows.some((r) => r.owner === n.id))!;
    const theirs = rows.filter((r) => r.owner === leaving.id).map((r) => r.id);
    const states: string[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const r of await leases()) if (theirs.includes(r.id)) states.push(r.state);
        await sleep(50);
      }
    })();
    const stoppedAt = Date.now();
    await stopNode(leaving, 'SIGTERM');
    const exitedAt = Date.now();
    await eventually(leases, (now) => theirs.every((id) => { const owner = now.find((r) => r.id === id)!.owner; return owner !== null && owner !== leaving.id; }), 10_000);
    const movedAt = Date.now();
    watching = false;
    await watch;
    expect(new Set(states)).toEqual(new Set(['connected']));
    expect(movedAt - exitedAt, 'taken over within one renewal interval of the exit').toBeLessThan(RENEWAL_MS);
    expect(exitedAt - stoppedAt).toBeLessThan(10_000);
    // Its node row is gone at once: /readyz of the others lists only the live nodes.
    const ready = await client(spare.url).get('/readyz');
    expect((ready.body.data.nodes as Array<{ id: string }>).map((n) => n.id)).not.toContain(leaving.id);
    const sent = await sendLoad(300);
    expect(sent.every((r) => r.status === 200)).toBe(true);
    await expectDeliveredExactlyOnce(sent.map((r) => r.id!));
  }, 60_000);
});

/** Rate limits with requests spread over three nodes: the minute window and the burst hold exactly. */
describe('rate limits across three nodes', () => {
  const postgresRedis = MODES.find((m) => m.redis)!;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const nodes: Array<Awaited<ReturnType<typeof startChildGateway>>> = [];
  let tenant: TestTenant;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `mgwlimits:${randomBytes(4).toString('hex')}:`,
      RATE_LIMIT_PER_MINUTE: '45',
      RATE_LIMIT_PER_HOUR: '1000',
      RATE_LIMIT_BURST: '12',
      SHUTDOWN_DRAIN_MS: '0',
    };
    const setup = await startTestGateway(postgresRedis, { reuse: { env: { DATABASE_URL: database.url } }, env });
    tenant = await createTenant(setup.gateway, client(setup.url));
    await setup.close();
    nodes.push(...(await Promise.all([startChildGateway(env), startChildGateway(env), startChildGateway(env)])));
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) await node.kill('SIGTERM').catch(() => {});
    await database?.drop();
  });

  it('holds the burst (requests in flight) exactly when they are held on three nodes', async () => {
    const held = Array.from({ length: 12 }, (_, i) => heldSend(nodes[i % 3]!.url, tenant.liveKey, { to: '5511987654321', text: `held ${i}` }));
    await sleep(1000);
    const over = Array.from({ length: 4 }, (_, i) => heldSend(nodes[i % 3]!.url, tenant.liveKey, { to: '5511987654321', text: `over ${i}` }));
    const refused = await Promise.race([Promise.all(over.map((h) => h.status)), sleep(5000).then(() => [])]);
    expect(refused, 'requests past the burst are refused while 12 are in flight').toEqual([429, 429, 429, 429]);
    for (const h of held) h.finish();
    // Admitted, then answered on their merits: this tenant has no instance to carry them.
    expect(await Promise.all(held.map((h) => h.status))).toEqual(Array(12).fill(409));
  });

  it('holds the minute window exactly with requests round-robin over three nodes', async () => {
    const key = await createKey(client(nodes[0]!.url), tenant.cookie, { name: 'minute' });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await client(nodes[i % 3]!.url).get('/api-keys', { key })).status);
    expect(statuses).toEqual([...Array(45).fill(200), ...Array(15).fill(429)]);
  }, 60_000);
});
