import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { connectedV1Instance, eventually, sleep } from '../../factories/sandbox.js';
import { createTenant } from '../../factories/tenants.js';
import { startChildGateway } from '../../kit/process.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES, REDIS_URL } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';

const newPhoneDigits = () => `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

/** Grouped writes and per-node caches with several real processes on one PostgreSQL and Redis. */
describe('grouped writes and node caches across processes (PostgreSQL + Redis)', () => {
  const postgresRedis = MODES.find((m) => m.redis)!;
  let a: TestGateway;
  const childEnv = () => ({
    ...a.env,
    REDIS_URL,
    REDIS_PREFIX: a.gateway.infra.config.REDIS_PREFIX,
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_BURST: '1000',
  });

  beforeAll(async () => {
    // The killed node's instance has a webhook on this machine, so its message events are stored.
    a = await startTestGateway(postgresRedis, { env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
  });
  afterAll(() => a?.close());

  it('a kill -9 in the middle of grouped writes leaves every answered message stored and nothing half-written', async () => {
    const apiA = client(a.url);
    const tenant = await createTenant(a.gateway, apiA);
    const instance = await connectedV1Instance(apiA, tenant.liveKey, 'killed-node-line');
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    expect((await apiA.post(`/v1/chat/instances/${instance.id}/webhook`, { key: tenant.liveKey, body: { url: receiver.url, events: ['messages.update'] } })).status).toBe(200);
    const b = await startChildGateway(childEnv());
    const apiB = client(b.url);
    const to = newPhoneDigits();
    const keyOf = (i: number) => (i % 3 === 0 ? `kill-${i}-${randomUUID()}` : undefined);
    let answeredSoFar = 0;
    let killed: Promise<void> | undefined;
    const sends = Array.from({ length: 600 }, (_, i) => {
      const key = keyOf(i);
      return apiB
        .post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `kill ${i}` }, headers: key ? { 'idempotency-key': key } : {} })
        .then(
          (response) => {
            // Killed the moment the 40th answer is out, while the rest are being written.
            if (++answeredSoFar === 40) killed = b.kill('SIGKILL');
            return { key, status: response.status, id: response.body?.data?.id as string | undefined };
          },
          () => ({ key, status: 0, id: undefined }),
        );
    });
    const answers = await Promise.all(sends);
    await killed;
    const answered = answers.filter((r) => r.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length, "the node died before answering everything").toBeLessThan(600);

    const prisma = a.gateway.infra.db.prisma;
    // Some are sent (so the sent marks below are checked: if the killed node owned the instance, the
    // survivor takes it over within 10 s first), and the surviving node keeps dispatching meanwhile:
    // everything below is read in one snapshot.
    await eventually(() => prisma.message.count({ where: { tenantId: tenant.tenantId, sentAt: { not: null } } }), (n) => n > 0, 30_000);
    const [stored, records, events, counted] = await prisma.$transaction(
      [
        prisma.message.findMany({ where: { tenantId: tenant.tenantId } }),
        prisma.idempotencyRecord.findMany({ where: { tenantId: tenant.tenantId } }),
        prisma.outboxEvent.findMany({ where: { tenantId: tenant.tenantId, event: 'messages.update' }, select: { data: true } }),
        prisma.instance.findUniqueOrThrow({ where: { id: instance.id }, select: { messagesSent: true } }),
      ],
      { isolationLevel: 'RepeatableRead' },
    );
    const storedIds = new Set(stored.map((m) => m.id));
    for (const { id } of answered) expect(storedIds.has(id!), `answered message ${id} is stored`).toBe(true);
    // A message and its idempotency answer are written together or not at all.
    const recordedIds = new Set(records.map((r) => JSON.parse(r.responseBody).id as string));
    for (const id of recordedIds) expect(storedIds.has(id)).toBe(true);
    for (const { key, id } of answered) if (key) expect(recordedIds.has(id!)).toBe(true);
    // A sent mark, the instance's count and the events of the mark are written together.
    const sentEvents = new Set(events.filter((e) => (e.data as { status: string }).status === 'sent').map((e) => (e.data as { messageId: string }).messageId));
    const sent = stored.filter((m) => m.sentAt !== null);
    for (const message of sent) expect(sentEvents.has(message.id), `sent message ${message.id} has its event`).toBe(true);
    expect(counted.messagesSent).toBe(sent.length);
  }, 60_000);

  it('a revoked key stops working at once on the node that revoked it and within 1 s on another node', async () => {
    const apiA = client(a.url);
    const tenant = await createTenant(a.gateway, apiA);
    const b = await startChildGateway(childEnv());
    try {
      const apiB = client(b.url);
      const created = await apiA.post('/api-keys', { cookie: tenant.cookie, body: { name: 'soon revoked', testMode: false } });
      expect(created.status).toBe(201);
      const { id, key } = created.body.data;
      // Both nodes have the key in memory.
      expect((await apiA.get('/v1/messages/list', { key })).status).toBe(200);
      expect((await apiB.get('/v1/messages/list', { key })).status).toBe(200);

      expect((await apiA.delete(`/api-keys/${id}`, { cookie: tenant.cookie })).status).toBe(200);
      const revokedAt = Date.now();
      expect((await apiA.get('/v1/messages/list', { key })).status).toBe(401);
      let status = 200;
      while (status !== 401 && Date.now() - revokedAt < 3000) {
        status = (await apiB.get('/v1/messages/list', { key })).status;
        if (status !== 401) await sleep(20);
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(1000);
    } finally {
      await b.kill('SIGTERM');
    }
  });
});
