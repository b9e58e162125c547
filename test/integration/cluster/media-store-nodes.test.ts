import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../factories/sandbox.js';
import { createTenant } from '../../factories/tenants.js';
import { client } from '../../helpers/http.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { MODES } from '../../kit/modes.js';
import { startChildGateway } from '../../kit/process.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { testDataDir } from '../../kit/templates.js';
import { type S3Server, startS3Server } from '../../networks/s3/server.js';

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * The nodes of one PostgreSQL database agree on where media is kept (docs/media.md, "Stores"): each
 * records its store, and a node that would keep it elsewhere (or in a folder of its own beside other
 * nodes) refuses to start, saying what to set.
 */
describe('several nodes and their media store', () => {
  const postgresRedis = MODES.find((m) => m.database === 'postgres' && m.redis)!;
  let s3: S3Server;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: pg.Client;
  const gateways: TestGateway[] = [];
  const folder = testDataDir();

  const start = async (env: Record<string, string>) => {
    const gateway = await startTestGateway(postgresRedis, { reuse: { env: { DATABASE_URL: database.url } }, env });
    gateways.push(gateway);
    return gateway;
  };
  const recorded = async () => (await sql.query(`SELECT "mediaStore" FROM "GatewayNode" WHERE "staleAt" > now() ORDER BY id`)).rows.map((r) => r.mediaStore as string);

  beforeAll(async () => {
    s3 = await startS3Server({ buckets: ['media', 'elsewhere'] });
    database = await createTestDatabase({ migrated: true });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    for (const gateway of gateways.reverse()) await gateway.close();
    await sql?.end();
    await database?.drop();
    await s3?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('starts two nodes sharing one object store, each recording it', async () => {
    const first = await start(s3.env('media', 'cluster'));
    const second = await start(s3.env('media', 'cluster'));
    const name = `s3://media/cluster at ${new URL(s3.url).host}`;
    await eventually(recorded, (stores) => stores.length === 2);
    expect(await recorded()).toEqual([name, name]);
    const ready = await client(second.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.data.nodes).toHaveLength(2);
    // Neither logged that the bucket cannot be used.
    expect(first.logs.lines.join('\n')).not.toMatch(/cannot keep files/);

    // A photo one node receives is kept in the bucket; the other serves it once the network's copy is gone.
    const viaFirst = client(first.url);
    const viaSecond = client(second.url);
    const tenant = await createTenant(first.gateway, viaFirst);
    const instance = await connectedV1Instance(viaFirst, tenant.liveKey, 'shared media');
    await eventually(() => viaFirst.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected');
    const sent = await viaFirst.post('/sandbox/messages', { body: { from: newPhone().slice(1), to: instance.phone.slice(1), type: 'image', media: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' } } });
    const messageId = sent.body.data.messageId as string;
    const kept = await eventually(() => viaSecond.get(`/v1/messages/status/${messageId}`, { key: tenant.liveKey }), (r) => r.body.data?.media?.stored === true);
    expect(s3.objects().some((object) => object.key === `cluster/${kept.body.data.media.sha256}`)).toBe(true);
    expect((await viaFirst.post(`/sandbox/messages/${messageId}/media-expiry`)).status).toBe(200);
    const download = await fetch(`${second.url}/v1/messages/${messageId}/media`, { headers: { 'x-api-key': tenant.liveKey } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG_1PX)).toBe(true);
    // A link signed by one node works on the other: the nodes share the key.
    const linked = await fetch(`${second.url}${kept.body.data.media.url}`);
    expect(linked.status).toBe(200);
    expect(Buffer.from(await linked.arrayBuffer()).equals(PNG_1PX)).toBe(true);
  });

  it('refuses a node that keeps no media beside nodes that do, naming what to set', async () => {
    await expect(start({ MEDIA_STORE: 'off' })).rejects.toThrow(
      /MEDIA_STORE: this node would keep media in off, but node .+ keeps it in s3:\/\/media\/cluster .*: set the same MEDIA_STORE=s3:\/\/bucket\/prefix .* on every node, or MEDIA_STORE=off on every node/,
    );
  });

  it('refuses a node on another bucket or prefix', async () => {
    await expect(start(s3.env('elsewhere', 'cluster'))).rejects.toThrow(/would keep media in s3:\/\/elsewhere\/cluster/);
    await expect(start(s3.env('media', 'other'))).rejects.toThrow(/would keep media in s3:\/\/media\/other/);
  });

  it('refuses a node that keeps media in its own folder beside other nodes', async () => {
    await expect(start({ MEDIA_STORE: 'folder' })).rejects.toThrow(/MEDIA_STORE=folder keeps media in this node's own folder, but other nodes are live on this database/);
    // Nothing of the refused nodes stays behind as a live node.
    expect(await recorded()).toHaveLength(2);
  });

  it('exits at once with the reason as a process (exit code 2, no stack)', async () => {
    const refused = startChildGateway({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', MEDIA_STORE: 'off' });
    await expect(refused).rejects.toThrow(/exited \(2\) before it was ready: Invalid configuration:\s+- MEDIA_STORE: this node would keep media in off/);
  });

  it('starts a folder node once it is the only one, and then refuses the object store beside it', async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
    // Nodes that stopped left the node set.
    expect(await recorded()).toEqual([]);
    const alone = await start({ MEDIA_STORE: 'folder', MEDIA_DIR: folder });
    expect(await eventually(recorded, (stores) => stores.length === 1)).toEqual([`folder:${folder}`]);
    await expect(start(s3.env('media', 'cluster'))).rejects.toThrow(`would keep media in s3://media/cluster at ${new URL(s3.url).host}, but node`);
    await alone.close();
    gateways.splice(gateways.indexOf(alone), 1);
  });
});
