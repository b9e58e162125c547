import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone, pairedV1 } from '../factories/chat-network.js';
import { eventually } from '../factories/sandbox.js';
import { createKey, login } from '../factories/tenants.js';
import { MessageGroupAndPoll } from '../graphql/operations.js';
import { startChildGateway } from '../helpers/child-gateway.js';
import { client } from '../helpers/http.js';
import { MODES, REDIS_URL } from '../helpers/modes.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { type ChatNetwork, startChatNetwork } from '../networks/chat-network/index.js';

type Node = Awaited<ReturnType<typeof startChildGateway>> & { id: string; alive: boolean };

const LEASE_MS = 3000;
const ADMIN = { GATEWAY_ADMIN_EMAIL: 'polls@example.com', GATEWAY_ADMIN_PASSWORD: 'polls-password', GATEWAY_ADMIN_PLAN: 'enterprise' };

/**
 * A poll's tally is the database's, not a node's: two gateway processes share PostgreSQL and Redis; the
 * owner of an instance dies after votes were counted, the other node takes the linked device over, and
 * votes that reach the new owner (new and changed ones) land on the same tally.
 */
describe('CHAT-BAILEYS: a poll tally across a takeover on PostgreSQL', () => {
  const postgres = MODES.find((m) => m.database === 'postgres')!;
  let network: ChatNetwork;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: pg.Client;
  let key: string;
  const nodes: Node[] = [];

  const ownerOf = async (instanceId: string) =>
    (await sql.query<{ owner: string | null }>(`SELECT CASE WHEN "expiresAt" > now() THEN owner END AS owner FROM "InstanceLease" WHERE "instanceId" = $1`, [instanceId])).rows[0]?.owner ?? null;

  beforeAll(async () => {
    network = await startChatNetwork();
    database = await createTestDatabase({ migrated: true });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    const env = {
      ...baileysEnv(network, postgres),
      ENGINES: 'baileys',
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `mgwpolls:${randomBytes(4).toString('hex')}:`,
      NODE_LEASE_MS: String(LEASE_MS),
      SHUTDOWN_DRAIN_MS: '0',
      ...ADMIN,
    };
    for (let n = 0; n < 2; n++) {
      const child = await startChildGateway(env);
      const ready = await client(child.url).get('/readyz');
      nodes.push({ ...child, id: ready.body.data.node as string, alive: true });
    }
    const api = client(nodes[0]!.url);
    key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'polls' });
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) if (node.alive) await node.kill('SIGKILL').catch(() => {});
    await sql?.end();
    await database?.drop();
    await network?.close();
  });

  it('votes counted by the first owner stay, and a new and a changed vote on the new owner count exactly', { timeout: 150_000 }, async () => {
    const instance = await pairedV1(client(nodes[0]!.url), key, network, `poll takeover ${Date.now()}`);
    const [ana, bea, cara] = [newNetworkPhone(), newNetworkPhone(), newNetworkPhone()].map((phone) => phone.slice(1)) as [string, string, string];
    const group = network.groupCreate(ana, 'Lunch crew', [bea, cara, instance.phone.slice(1)]);
    const api = client(nodes[0]!.url);
    const sent = await api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to: group, poll: { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'] } } });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.id as string;
    const status = await eventually(() => api.get(`/v1/messages/status/${messageId}`, { key }), (r) => Boolean(r.body.data?.networkMessageId), 20_000);
    const pollId = status.body.data.networkMessageId as string;
    for (const phone of [ana, bea, cara]) await network.waitFor(() => network.inbox(phone).find((m) => m.id === pollId), 20_000, `the poll on ${phone}`);

    const tally = (votes: Record<string, string[]>) => ({
      name: 'Lunch?',
      selectableCount: 1,
      options: ['Pizza', 'Sushi', 'Salad'].map((name) => ({ name, votes: votes[name]?.length ?? 0, voters: votes[name] ?? [] })),
    });
    const recordOn = async (node: Node) => (await client(node.url).get(`/v1/messages/status/${messageId}`, { key })).body.data.poll;

    // Two votes, counted by the first owner.
    await network.vote(ana, pollId, group, ['Pizza']);
    await network.vote(bea, pollId, group, ['Sushi']);
    const before = tally({ Pizza: [ana], Sushi: [bea] });
    await eventually(() => recordOn(nodes[0]!), (poll) => isDeepStrictEqual(poll, before), 20_000);

    // The owner dies; the other node takes the linked device over from the database, no pairing.
    const ownerId = await ownerOf(instance.id);
    const owner = nodes.find((node) => node.id === ownerId)!;
    expect(owner, `owner ${ownerId}`).toBeDefined();
    const survivor = nodes.find((node) => node !== owner)!;
    owner.alive = false;
    await owner.kill('SIGKILL');
    await eventually(
      async () => ({ lease: await ownerOf(instance.id), connected: network.devices().some((d) => `+${d.phone}` === instance.phone && d.connected) }),
      (now) => now.lease === survivor.id && now.connected,
      20_000,
    );

    // On the new owner: a voter changes its vote (it replaces the earlier one) and a new voter votes.
    await network.vote(bea, pollId, group, ['Pizza']);
    await network.vote(cara, pollId, group, ['Salad']);
    const after = tally({ Pizza: [ana, bea], Salad: [cara] });
    const settled = await eventually(() => recordOn(survivor), (poll) => isDeepStrictEqual(poll, after), 20_000);
    expect(settled).toEqual(after);
    const graphql = await client(survivor.url).operation(MessageGroupAndPoll, { id: messageId }, { key });
    expect(graphql.body.data!.message!.poll).toEqual(after);
    // Each voter counted once over all options.
    expect(settled.options.flatMap((o: { voters: string[] }) => o.voters).sort()).toEqual([ana, bea, cara].sort());
  });
});
