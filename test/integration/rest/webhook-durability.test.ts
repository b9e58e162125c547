import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/infra/db/database.js';
import { eventually, sleep } from '../../factories/sandbox.js';
import { createKey, login } from '../../factories/tenants.js';
import { startChildGateway } from '../../kit/process.js';
import { client } from '../../helpers/http.js';
import { REDIS_URL } from '../../kit/modes.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { seedPgliteDataDir } from '../../kit/templates.js';
import { startReceiver } from '../../helpers/receiver.js';

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'hooks@example.com', GATEWAY_ADMIN_PASSWORD: 'hooks-password' };

async function keyFor(url: string) {
  const api = client(url);
  const cookie = await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD);
  return { api, key: await createKey(api, cookie, { name: 'hooks' }) };
}

describe('webhook durability across a crash', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function storage(kind: 'pglite' | 'postgres'): Promise<Record<string, string>> {
    if (kind === 'pglite') {
      const dir = mkdtempSync(join(tmpdir(), 'mgw-crash-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      seedPgliteDataDir(dir);
      return { DATA_DIR: dir };
    }
    const db = await createTestDatabase({ migrated: true });
    cleanups.push(db.drop);
    return { DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: `mgwtest:${randomBytes(4).toString('hex')}:` };
  }

  it.each(['pglite', 'postgres'] as const)('a pending delivery completes after SIGKILL and restart (%s)', async (kind) => {
    const receiver = await startReceiver((call) => ({ status: call === 1 ? 500 : 200 }));
    cleanups.push(receiver.close);
    const env = { ...(await storage(kind)), ...ADMIN, WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS: '0,3' };

    const first = await startChildGateway(env);
    const { api, key } = await keyFor(first.url);
    const created = await api.post('/v1/chat/instances', {
      key,
      body: { name: 'crash test', webhookUrl: `${receiver.url}/hook`, webhookEvents: ['qr.update'] },
    });
    expect(created.status).toBe(201);
    await eventually(async () => receiver.received.length, (n) => n === 1);
    // The failed attempt is recorded before the kill; the retry is due in 3 s.
    await eventually(
      () => api.get(`/v1/chat/instances/${created.body.data.id}/webhook/deliveries`, { key }),
      (r) => r.body.data?.some((delivery: { attempts: Array<{ statusCode: number | null }> }) => delivery.attempts.some((attempt) => attempt.statusCode === 500)),
    );
    await first.kill('SIGKILL');

    const second = await startChildGateway(env);
    cleanups.push(() => second.kill('SIGTERM'));
    // The retry of that delivery (the restarted node also runs the pairing anew: its new codes are other deliveries).
    const first_ = receiver.received[0]!;
    const retried = await eventually(
      async () => receiver.received.slice(1).find((call) => call.headers['x-webhook-id'] === first_.headers['x-webhook-id']),
      (call) => call !== undefined,
      20_000,
    );
    expect(retried!.body).toBe(first_.body);
    const { key: key2 } = await keyFor(second.url);
    type Logged = { id: string; status: string; attempts: Array<{ statusCode: number }> };
    const log = await eventually(
      () => client(second.url).get(`/v1/chat/instances/${created.body.data.id}/webhook/deliveries`, { key: key2 }),
      (r) => r.body.data.some((d: Logged) => d.id === first_.headers['x-webhook-id'] && d.status === 'delivered'),
    );
    const delivery = log.body.data.find((d: Logged) => d.id === first_.headers['x-webhook-id']) as Logged;
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
  }, 120_000);

  it('two gateway processes on one Redis and database deliver every event exactly once', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const env: Record<string, string> = { ...(await storage('postgres')), ...ADMIN, GATEWAY_ADMIN_PLAN: 'enterprise', WEBHOOK_ALLOW_INSECURE: 'true' };
    const a = await startChildGateway(env);
    cleanups.push(() => a.kill('SIGTERM'));
    const b = await startChildGateway(env);
    cleanups.push(() => b.kill('SIGTERM'));

    const { api, key } = await keyFor(a.url);
    const apiB = client(b.url);
    for (let i = 0; i < 6; i++) {
      const target = i % 2 ? apiB : api;
      expect((await target.post('/v1/chat/instances', { key, body: { name: `node test ${i}`, webhookUrl: `${receiver.url}/n${i}` } })).status).toBe(201);
    }
    for (let i = 0; i < 6; i++) {
      // GET …/qr on alternating nodes: connection.update and qr.update events on both.
      const list = (await api.get('/v1/chat/instances', { key })).body.data;
      await (i % 2 ? apiB : api).get(`/v1/chat/instances/${list[i].id}/qr`, { key });
    }
    const db = openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: 'memory://' });
    cleanups.push(() => db.close());
    await eventually(
      async () => {
        const pending = await db.prisma.webhookDelivery.count({ where: { status: 'pending' } });
        const total = await db.prisma.webhookDelivery.count();
        return { pending, total };
      },
      ({ pending, total }) => pending === 0 && total >= 12,
      20_000,
    );
    await sleep(1000);
    const ids = receiver.received.map((r) => String(r.headers['x-webhook-id']));
    expect(ids.length).toBe(await db.prisma.webhookDelivery.count());
    expect(new Set(ids).size).toBe(ids.length);
    expect(await db.prisma.webhookAttempt.count()).toBe(ids.length);
  }, 120_000);
});
