import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1, sentPoll } from '../../factories/chat-network.js';
import { eventually } from '../../factories/sandbox.js';
import { createKey, login } from '../../factories/tenants.js';
import { MessageGroupAndPoll } from '../../graphql/operations.js';
import { baileysNodesEnv, type GatewayNode, startNode } from '../../kit/worlds/cluster.js';
import { client } from '../../helpers/http.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { type ChatNetwork, startChatNetwork } from '../../networks/chat-network/index.js';


const LEASE_MS = 3000;
const ADMIN = { GATEWAY_ADMIN_EMAIL: 'polls@example.com', GATEWAY_ADMIN_PASSWORD: 'polls-password', GATEWAY_ADMIN_PLAN: 'enterprise' };

/**
 * A poll's tally is the database's, not a node's: two gateway processes share PostgreSQL and Redis; the
 * owner of an instance dies after votes were counted, the other node takes the linked device over, and
 * votes that reach the new owner (new and changed ones) land on the same tally.
 */
describe('CHAT-BAILEYS: a poll tally across a takeover on PostgreSQL', () => {
  let network: ChatNetwork;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: pg.Client;
  let key: string;
  const nodes: GatewayNode[] = [];

  const ownerOf = async (instanceId: string) =>
    (await sql.query<{ owner: string | null }>(`SELECT CASE WHEN "expiresAt" > now() THEN owner END AS owner FROM "InstanceLease" WHERE "instanceId" = $1`, [instanceId])).rows[0]?.owner ?? null;

  beforeAll(async () => {
    network = await startChatNetwork();
    database = await createTestDatabase({ migrated: true });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    const env = baileysNodesEnv(network, database.url, LEASE_MS, ADMIN);
    for (let n = 0; n < 2; n++) nodes.push(await startNode(env));
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
    const { messageId, pollId } = await sentPoll(client(nodes[0]!.url), key, network, instance.id, group, { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'] }, [ana, bea, cara]);

    const tally = (votes: Record<string, string[]>) => ({
      name: 'Lunch?',
      selectableCount: 1,
      options: ['Pizza', 'Sushi', 'Salad'].map((name) => ({ name, votes: votes[name]?.length ?? 0, voters: votes[name] ?? [] })),
    });
    const recordOn = async (node: GatewayNode) => (await client(node.url).get(`/v1/messages/status/${messageId}`, { key })).body.data.poll;

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
