import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Unavailable } from '../../../src/domain/errors.js';
import { connectedV1Instance, eventually } from '../../factories/sandbox.js';
import { createKey, createTenant, login, type TestTenant } from '../../factories/tenants.js';
import { startChildGateway } from '../../kit/process.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client, type Client, failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { seedPgliteDataDir } from '../../kit/templates.js';

const embedded = MODES.find((mode) => mode.database === 'pglite')!;

/** The embedded database runs on a thread of its own (docs/architecture.md): its transactions, its death, a shutdown. */
describe('the embedded database on its own thread', () => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let instanceId: string;
  /** Every statement the gateway sends the thread, as it sends it. */
  const sent: string[] = [];

  beforeAll(async () => {
    gw = await startTestGateway(embedded, {
      infra: { onQuery: (sql) => void sent.push(sql) },
      // The thread's death is logged, and so are the sweeps and dispatches it failed.
      expectedErrors: [/embedded database's thread|The database is not answering|terminated/],
    });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    instanceId = (await connectedV1Instance(api, tenant.liveKey, 'threaded')).id;
  });
  afterAll(() => gw?.close());

  const db = () => gw.gateway.infra.db;
  const nameOf = async () => (await db().prisma.instance.findUniqueOrThrow({ where: { id: instanceId } })).name;

  it('rolls back a transaction of the hot statements when one of its statements throws', async () => {
    await expect(
      db().statements.transaction(async (run) => {
        await run('UPDATE "Instance" SET name = $1 WHERE id = $2::uuid', ['renamed-in-vain', instanceId]);
        await run('SELECT 1 / 0');
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await nameOf()).toBe('threaded');
    // The thread serves the next transaction as usual.
    await db().statements.transaction((run) => run('UPDATE "Instance" SET name = $1 WHERE id = $2::uuid', ['threaded', instanceId]));
  });

  it("rolls back a Prisma transaction when a statement fails or the caller's work throws", async () => {
    await expect(
      db().prisma.$transaction(async (tx) => {
        await tx.instance.update({ where: { id: instanceId }, data: { name: 'renamed-in-vain' } });
        await tx.$executeRawUnsafe('SELECT 1 / 0');
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await nameOf()).toBe('threaded');
    await expect(
      db().prisma.$transaction(async (tx) => {
        await tx.instance.update({ where: { id: instanceId }, data: { name: 'renamed-in-vain' } });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await nameOf()).toBe('threaded');
  });

  it('answers 503 for what the thread had not answered when it died, then starts it again with the data kept', async () => {
    const thread = db().thread!;
    const generation = thread.generation;
    // A key no node has looked up yet: the listing's first statement is its lookup.
    const key = await createKey(api, tenant.cookie, { name: 'fresh' });
    // The thread is held by a long statement; a request queues behind it.
    const held = db().statements.run('SELECT pg_sleep(30)');
    const heldOutcome = held.then(
      () => 'answered',
      (error: unknown) => error,
    );
    const before = sent.length;
    const listing = api.get('/v1/chat/instances', { key });
    // The listing's first statement reached the thread, behind the held one.
    await eventually(async () => sent.slice(before).some((sql) => sql.includes('FROM "public"."ApiKey"')), Boolean);
    await (await thread.worker()).terminate();

    const outcome = await heldOutcome;
    expect(outcome).toBeInstanceOf(Unavailable);
    const answer = await listing;
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual(failure('service_unavailable'));

    // A new thread opens the same folder: what was stored before is there.
    const after = await eventually(() => api.get('/v1/chat/instances', { key: tenant.liveKey }), (r) => r.status === 200, 20_000);
    expect(after.body.data.map((i: { id: string }) => i.id)).toContain(instanceId);
    expect(thread.generation).toBe(generation + 1);
    expect((await api.get('/readyz')).status).toBe(200);
    const message = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: '5511912345678', text: 'after the restart' } });
    expect(message.status).toBe(200);
  });
});

describe('the embedded gateway stopped by SIGTERM while it writes', () => {
  const ADMIN = { GATEWAY_ADMIN_EMAIL: 'thread@example.com', GATEWAY_ADMIN_PASSWORD: 'thread-password', GATEWAY_ADMIN_PLAN: 'enterprise' };
  const LIMITS = { RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_HOUR: '1000000', RATE_LIMIT_BURST: '1000', DAILY_MESSAGES_ENTERPRISE: '1000000' };

  it('keeps every message it answered 200, and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgw-thread-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    seedPgliteDataDir(dir);
    const env = { DATA_DIR: dir, ...ADMIN, ...LIMITS };
    const first = await startChildGateway(env);
    const api = client(first.url);
    const key = await createKey(api, await login(api, ADMIN.GATEWAY_ADMIN_EMAIL, ADMIN.GATEWAY_ADMIN_PASSWORD), { name: 'thread' });
    await connectedV1Instance(api, key, 'sigterm-line');

    let answeredSoFar = 0;
    let stopped: Promise<void> | undefined;
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        api.post('/v1/messages/send', { key, body: { to: '5511987654321', text: `term ${i}` } }).then(
          (response) => {
            // Stopped the moment the 40th answer is out, while the rest are being written.
            if (++answeredSoFar === 40) stopped = first.kill('SIGTERM');
            return { status: response.status, id: response.body?.data?.id as string | undefined };
          },
          () => ({ status: 0, id: undefined }),
        ),
      ),
    );
    await stopped;
    expect(await first.exited).toBe(0);
    const answered = answers.filter((a) => a.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(40);

    const second = await startChildGateway(env);
    onTestFinished(() => second.kill('SIGTERM'));
    const again = client(second.url);
    for (const { id } of answered) {
      const status = await again.get(`/v1/messages/status/${id}`, { key });
      expect(status.status, `answered message ${id} is stored`).toBe(200);
    }
  }, 90_000);
});
