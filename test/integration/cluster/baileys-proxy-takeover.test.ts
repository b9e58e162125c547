import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../factories/chat-network.js';
import { eventually } from '../../factories/sandbox.js';
import { createKey, login } from '../../factories/tenants.js';
import { startExitAddressServer } from '../../helpers/exit-address.js';
import { client } from '../../helpers/http.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';
import { type Socks5Proxy, startSocks5Proxy } from '../../helpers/socks5-proxy.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { baileysNodesEnv, type GatewayNode, startNode } from '../../kit/worlds/cluster.js';
import { type ChatNetwork, startChatNetwork } from '../../networks/chat-network/index.js';

const LEASE_MS = 3000;
const ADMIN = { GATEWAY_ADMIN_EMAIL: 'proxies@example.com', GATEWAY_ADMIN_PASSWORD: 'proxies-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
const EXIT = '127.0.0.3';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * An instance's proxy is kept with its engine state, not on a node: two gateway processes share
 * PostgreSQL and Redis, the owner dies, and the node that takes the linked device over connects it
 * through the same proxy, and downloads its media through it.
 */
describe('CHAT-BAILEYS: an instance’s proxy moves with it on a takeover', () => {
  let network: ChatNetwork;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: pg.Client;
  let checker: Awaited<ReturnType<typeof startExitAddressServer>>;
  let proxy: Socks5Proxy;
  let receiver: Receiver;
  let key: string;
  const nodes: GatewayNode[] = [];

  const ownerOf = async (instanceId: string) =>
    (await sql.query<{ owner: string | null }>(`SELECT CASE WHEN "expiresAt" > now() THEN owner END AS owner FROM "InstanceLease" WHERE "instanceId" = $1`, [instanceId])).rows[0]?.owner ?? null;

  beforeAll(async () => {
    network = await startChatNetwork();
    database = await createTestDatabase({ migrated: true });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    checker = await startExitAddressServer();
    proxy = await startSocks5Proxy({ username: 'ops', password: randomBytes(8).toString('hex'), outboundAddress: EXIT });
    receiver = await startReceiver();
    // Received media is not kept: a download is the network's copy, fetched by the node asked.
    const env = baileysNodesEnv(network, database.url, LEASE_MS, ADMIN, { WEBHOOK_ALLOW_INSECURE: 'true', PROXY_CHECK_URL: checker.url, MEDIA_STORE: 'off' });
    for (let n = 0; n < 2; n++) nodes.push(await startNode(env));
    const api = client(nodes[0]!.url);
    key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'proxies' });
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) if (node.alive) await node.kill('SIGKILL').catch(() => {});
    await sql?.end();
    await database?.drop();
    await receiver?.close();
    await proxy?.close();
    await checker?.close();
    await network?.close();
  });

  it('the node that takes the instance over connects through its proxy, and serves its media through it', { timeout: 150_000 }, async () => {
    const instance = await pairedV1(client(nodes[0]!.url), key, network, `proxy takeover ${Date.now()}`);
    const hooked = await client(nodes[0]!.url).post(`/v1/chat/instances/${instance.id}/webhook`, { key, body: { url: `${receiver.url}/takeover` } });
    expect(hooked.status, hooked.text).toBe(200);
    const since = new Date();
    const set = await client(nodes[0]!.url).put(`/v1/chat/instances/${instance.id}/settings`, { key, body: { proxy: { url: proxy.url } } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.proxy.exitAddress).toBe(EXIT);
    await network.waitFor(() => network.peers().some((peer) => peer.service === 'socket' && peer.address === EXIT && peer.at >= since), 20_000, 'the socket through the proxy');

    // The owner dies; the other node takes the linked device over, through the proxy it reads back.
    const ownerId = await ownerOf(instance.id);
    const owner = nodes.find((node) => node.id === ownerId)!;
    expect(owner, `owner ${ownerId}`).toBeDefined();
    const survivor = nodes.find((node) => node !== owner)!;
    owner.alive = false;
    await owner.kill('SIGKILL');
    const killedAt = new Date();
    await eventually(
      async () => ({ lease: await ownerOf(instance.id), through: network.peers().some((peer) => peer.service === 'socket' && peer.address === EXIT && peer.at >= killedAt) }),
      (now) => now.lease === survivor.id && now.through,
      30_000,
    );

    // A photo received after the takeover, downloaded from the survivor: through the proxy too.
    const contact = newNetworkPhone().slice(1);
    const bytes = randomBytes(25_013);
    await network.send(contact, instance.phone, { image: { mimetype: 'image/jpeg', bytes } });
    const [hook] = await eventually(
      async () => receiver.of('messages.upsert').map((call) => JSON.parse(call.body)).filter((body) => body.instanceId === instance.id && body.data.from === contact),
      (list) => list.length === 1,
      20_000,
    );
    const tunnels = proxy.carried().filter((tunnel) => tunnel.target === network.mediaHost).length;
    const answer = await fetch(`${survivor.url}/v1/messages/${hook.data.messageId}/media`, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(200);
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(bytes));
    expect(proxy.carried().filter((tunnel) => tunnel.target === network.mediaHost).length).toBeGreaterThan(tunnels);
    expect(network.peers().filter((peer) => peer.at >= since && peer.address !== EXIT)).toEqual([]);
  });
});
