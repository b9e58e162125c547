import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually } from '../../factories/sandbox.js';
import { createKey, createTenant, login } from '../../factories/tenants.js';
import { amqpConsumer, brokerEnv, brokerNames, type Consumed, dropBrokerNames, natsConsumer } from '../../kit/worlds/brokers.js';
import { distEntry, startChildGateway } from '../../kit/process.js';
import { startTestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES, REDIS_URL } from '../../kit/modes.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { seedPgliteDataDir } from '../../kit/templates.js';
import { startTcpProxy } from '../../helpers/tcp-proxy.js';

const ADMIN = { GATEWAY_ADMIN_EMAIL: 'streams@example.com', GATEWAY_ADMIN_PASSWORD: 'streams-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
const LIMITS = { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '10000000', RATE_LIMIT_BURST: '10000', SHUTDOWN_DRAIN_MS: '0' };

/** Sends `count` messages, `parallel` at a time, through `urls` in turn; their ids. */
async function sendMany(urls: string[], key: string, count: number, parallel = 10): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, n) => {
      const api = client(urls[(start + n) % urls.length]!);
      return api.post('/v1/messages/send', { key, body: { to: `5521${String(start + n).padStart(9, '0')}`, text: `backlog ${start + n}` } });
    });
    for (const answer of await Promise.all(batch)) {
      if (answer.status !== 200) throw new Error(`send failed: ${answer.text}`);
      ids.push(answer.body.data.id);
    }
  }
  return ids;
}

/** For each message, the upsert and its sent and delivered updates, by messageId. */
function stepsOf(received: Consumed[]) {
  const steps = new Map<string, Set<string>>();
  for (const message of received) {
    const body = JSON.parse(message.body);
    const id = body.data.messageId as string | undefined;
    if (!id) continue;
    const seen = steps.get(id) ?? new Set<string>();
    seen.add(body.event === 'messages.upsert' ? 'upsert' : body.data.status);
    steps.set(id, seen);
  }
  return steps;
}

const complete = (received: Consumed[], messageIds: string[]) => {
  const steps = stepsOf(received);
  return messageIds.every((id) => ['upsert', 'sent', 'delivered'].every((step) => steps.get(id)?.has(step)));
};

/** Repeats of an id carry the same bytes. */
function expectSameBytesPerId(received: Consumed[]) {
  const byId = new Map<string, string>();
  for (const m of received) {
    if (byId.has(m.id)) expect(m.body).toBe(byId.get(m.id));
    byId.set(m.id, m.body);
  }
}

describe.each(MODES)('event streams across processes — $name', (mode) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('publishes the rest of a backlog after the gateway is killed (kill -9) in the middle of it', { timeout: 180_000 }, async () => {
    const names = brokerNames();
    cleanups.push(() => dropBrokerNames(names));
    let storage: Record<string, string>;
    if (mode.database === 'postgres') {
      const database = await createTestDatabase({ migrated: true });
      cleanups.push(database.drop);
      storage = { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `mgwstreams:${randomBytes(4).toString('hex')}:` };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'mgw-streams-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      seedPgliteDataDir(dir);
      storage = { DATA_DIR: dir };
    }
    // The brokers are out of reach at first (proxies that refuse), so events pile up in the outbox.
    const [amqpProxy, natsProxy] = await Promise.all([startTcpProxy({ host: '127.0.0.1', port: 5672 }), startTcpProxy({ host: '127.0.0.1', port: 4222 })]);
    cleanups.push(() => amqpProxy.close(), () => natsProxy.close());
    amqpProxy.cut();
    natsProxy.cut();
    const amqp = await amqpConsumer(names.exchange, '#');
    cleanups.push(() => amqp.close());
    const env = { ...storage, ...ADMIN, ...LIMITS, ...brokerEnv(names) };
    const first = await startChildGateway({
      ...env,
      EVENTS_AMQP_URL: `amqp://guest:guest@127.0.0.1:${amqpProxy.port}`,
      EVENTS_NATS_URL: `nats://127.0.0.1:${natsProxy.port}`,
    });
    let second: Awaited<ReturnType<typeof startChildGateway>> | undefined;
    let firstAlive = true;
    try {
      const api = client(first.url);
      const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'streams' });
      expect((await api.get('/readyz')).body.data.brokers).toEqual({ amqp: 'down', nats: 'down' });
      await connectedV1Instance(api, key, 'Backlog');
      const sent = await sendMany([first.url], key, 300);
      await eventually(() => api.get(`/v1/messages/status/${sent.at(-1)}`, { key }), (r) => r.body.data.status === 'delivered', 30_000);
      // Visible while it waits: brokers down, the backlog's age growing, the gateway still ready.
      const metrics = (await api.get('/metrics')).text;
      for (const broker of ['amqp', 'nats']) {
        expect(metrics).toContain(`gateway_events_broker_up{broker="${broker}"} 0`);
        expect(Number(new RegExp(`gateway_events_backlog_age_seconds\\{broker="${broker}"\\} ([\\d.e-]+)`).exec(metrics)?.[1])).toBeGreaterThan(0);
      }
      expect((await api.get('/readyz')).status).toBe(200);

      // The brokers come back; the gateway dies as soon as publishing has begun.
      amqpProxy.restore();
      natsProxy.restore();
      await eventually(async () => amqp.received.length, (n) => n > 0, 30_000);
      await first.kill('SIGKILL');
      firstAlive = false;
      const atKill = amqp.received.length;

      second = await startChildGateway(env);
      await eventually(async () => complete(amqp.received, sent), Boolean, 60_000);
      expectSameBytesPerId(amqp.received);
      const nats = await natsConsumer(names.stream, `${names.prefix}.>`);
      try {
        await eventually(async () => complete(nats.received, sent), Boolean, 60_000);
        expect(nats.received.length).toBe(new Set(nats.received.map((m) => m.id)).size);
      } finally {
        await nats.close();
      }
      // At least once: the restart republished what the killed node had not marked (same ids), nothing lost.
      expect(new Set(amqp.received.map((m) => m.id)).size).toBeGreaterThanOrEqual(sent.length * 3);
      console.info(`kill -9 after ${atKill} of ${new Set(amqp.received.map((m) => m.id)).size} events had reached RabbitMQ`);
    } finally {
      if (firstAlive) await first.kill('SIGKILL');
      await second?.kill('SIGTERM');
    }
  });

});

describe('event streams on two nodes — PostgreSQL + Redis', () => {
  const mode = MODES.find((m) => m.database === 'postgres')!;
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('publishes every event, once on NATS and with one id per event on RabbitMQ', { timeout: 120_000 }, async () => {
    const names = brokerNames();
    cleanups.push(() => dropBrokerNames(names));
    const amqp = await amqpConsumer(names.exchange, '#');
    cleanups.push(() => amqp.close());
    const one = await startTestGateway(mode, { env: { ...LIMITS, ...brokerEnv(names) } });
    cleanups.push(() => one.close());
    const two = await startTestGateway(mode, { env: { ...LIMITS, ...brokerEnv(names), REDIS_PREFIX: one.gateway.infra.config.REDIS_PREFIX }, reuse: { env: one.env } });
    cleanups.push(() => two.close());
    const tenant = await createTenant(one.gateway, client(one.url), 'enterprise');
    const instances = await Promise.all([0, 1, 2].map((n) => connectedV1Instance(client([one.url, two.url][n % 2]!), tenant.liveKey, `Two nodes ${n}`)));
    const sent = await sendMany([one.url, two.url], tenant.liveKey, 240);
    const prisma = one.gateway.infra.db.prisma;
    await eventually(() => prisma.message.count({ where: { id: { in: sent }, status: 'delivered' } }), (n) => n === sent.length, 30_000);
    const expected = (await prisma.outboxEvent.findMany({ where: { instanceId: { in: instances.map((i) => i.id) } }, select: { deliveryId: true } })).map((e) => e.deliveryId!);
    await eventually(async () => expected.every((id) => amqp.received.some((m) => m.id === id)), Boolean, 30_000);
    expectSameBytesPerId(amqp.received);
    const nats = await natsConsumer(names.stream, `${names.prefix}.>`);
    try {
      await eventually(async () => expected.every((id) => nats.received.some((m) => m.id === id)), Boolean, 30_000);
      expect(nats.received.length).toBe(new Set(nats.received.map((m) => m.id)).size);
    } finally {
      await nats.close();
    }
    // Nothing is left for either broker.
    expect(await prisma.outboxEvent.count({ where: { NOT: { streams: { isEmpty: true } } } })).toBe(0);
  });
});

describe('event streams configuration', () => {
  const run = promisify(execFile);

  it('refuses to start with a wrong broker URL, naming the variable', { timeout: 60_000 }, async () => {
    const failure = await run(process.execPath, distEntry('main'), {
      env: { ...process.env, DATA_DIR: 'memory://', PORT: '0', EVENTS_AMQP_URL: 'http://127.0.0.1:5672', EVENTS_NATS_URL: 'nats://' },
      timeout: 50_000,
    }).then(
      () => undefined,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failure?.code).toBe(2);
    const output = `${failure?.stderr}${failure?.stdout}`;
    expect(output).toMatch(/EVENTS_AMQP_URL: a URL like amqp:\/\/host:port/);
    expect(output).toMatch(/EVENTS_NATS_URL: a URL like nats:\/\/host:port/);
  });
});
