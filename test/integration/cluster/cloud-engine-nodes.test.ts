import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES, REDIS_URL } from '../../kit/modes.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { type CloudApi, startCloudApi } from '../../networks/cloud-api/index.js';

const postgresRedis = MODES.find((mode) => mode.database === 'postgres')!;
const MPS = 50;
const SENDS = 300;

describe('CHAT-CLOUD across 2 nodes on PostgreSQL: CLOUD_MPS holds for the number', () => {
  let cloud: CloudApi;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const nodes: TestGateway[] = [];
  let tenant: TestTenant;

  beforeAll(async () => {
    cloud = await startCloudApi({ statusDelayMs: 50 });
    database = await createTestDatabase({ migrated: true });
    const env = {
      ENGINES: 'cloud',
      CLOUD_API_URL: cloud.url,
      CLOUD_VERIFY_TOKEN: 'verify-nodes-token',
      CLOUD_MPS: String(MPS),
      ENGINE_STATE_KEY: randomBytes(32).toString('base64'),
      REDIS_URL,
      REDIS_PREFIX: `mgwcloud:${randomBytes(4).toString('hex')}:`,
      DAILY_MESSAGES_ENTERPRISE: '1000000',
      // All 300 are sent at once and the two nodes count them in one Redis: this suite is about the API's pace, not the gateway's burst limit.
      RATE_LIMIT_BURST: String(SENDS),
    };
    for (let n = 0; n < 2; n++) nodes.push(await startTestGateway(postgresRedis, { reuse: { env: { DATABASE_URL: database.url } }, env }));
    cloud.setWebhook(`${nodes[0]!.url}/webhooks/cloud`, 'verify-nodes-token');
    tenant = await createTenant(nodes[0]!.gateway, client(nodes[0]!.url), 'enterprise');
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) await node.close();
    await cloud?.close();
    await database?.drop();
  });

  it(`${SENDS} sends accepted by both nodes reach the API once each, never more than ${MPS} in a second`, async () => {
    const credentials = { phoneNumberId: `77${Date.now()}`, accessToken: `EAAG-${randomBytes(8).toString('hex')}`, appSecret: randomBytes(8).toString('hex') };
    cloud.addNumber({ ...credentials, displayPhoneNumber: '15557770000' });
    const [a, b] = nodes.map((node) => client(node.url));
    const created = await a!.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'busy number', integration: 'CHAT-CLOUD', cloud: credentials } });
    expect(created.status, created.text).toBe(201);
    await eventually(() => b!.get(`/v1/chat/instances/${created.body.data.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected', 15_000);
    const users = ['447700900001', '447700900002', '447700900003'];
    for (const user of users) cloud.openWindow(credentials.phoneNumberId, user);

    const accepted = await Promise.all(
      Array.from({ length: SENDS }, (_, n) => [a, b][n % 2]!.post('/v1/messages/send', { key: tenant.liveKey, body: { to: users[n % users.length], text: `message ${n}` } })),
    );
    expect(accepted.filter((r) => r.status !== 200).map((r) => r.text)).toEqual([]);
    const sends = await cloud.waitForSent(SENDS, (s) => s.phoneNumberId === credentials.phoneNumberId, 60_000);
    const texts = sends.map((s) => (s.body.text as { body: string }).body);
    expect(new Set(texts).size).toBe(SENDS);
    expect(cloud.peakPerSecond(credentials.phoneNumberId)).toBeLessThanOrEqual(MPS);
    // Paced, not just fast: 300 at 50 a second take at least five seconds from the first to the last.
    expect(sends.at(-1)!.at - sends[0]!.at).toBeGreaterThanOrEqual(((SENDS - MPS) / MPS) * 1000);
  }, 120_000);
});
