import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { type Client, client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe.each(MODES)('data over time: retention and deleting an instance — $name', (mode) => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  /** A receiver that fails while `failing` is set, and keeps every call. */
  let failing = false;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: failing ? 503 : 200 }));
    gw = await startTestGateway(mode, {
      env: {
        RETENTION_MESSAGES: '3s',
        RETENTION_DELIVERIES: '3s',
        RETENTION_CONNECTIONS: '3s',
        WEBHOOK_ALLOW_INSECURE: 'true',
        // Retries every 2 s for long enough to outlive the retention several times.
        WEBHOOK_RETRY_DELAYS: '0,2,2,2,2,2,2,2,2,2,2,2,2,2,2',
      },
    });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  const rows = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => gw.gateway.infra.db.statements.run<T>(sql, params);
  const count = async (sql: string, params: unknown[]) => Number((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n);

  it('records, delivery logs and connection history go past their retention and read as 404; statistics keep their totals', async () => {
    const instance = await connectedV1Instance(api, tenant.liveKey, `retained ${Date.now()}`);
    await api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: tenant.liveKey, body: { url: `${receiver.url}/kept` } });
    const sent = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: newPhone().slice(1), text: 'kept for three seconds' } });
    expect(sent.status, sent.text).toBe(200);
    const id = sent.body.data.id as string;
    await eventually(() => api.get(`/v1/messages/status/${id}`, { key: tenant.liveKey }), (r) => r.status === 200 && r.body.data.status !== 'queued');
    await eventually(() => count(`"WebhookDelivery" WHERE "instanceId" = $1::uuid AND status = 'delivered'`, [instance.id]), (n) => n > 0);
    const before = await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey });
    const statistics = before.body.data.statistics;
    expect(statistics.messagesSent).toBeGreaterThanOrEqual(1);

    const gone = await eventually(() => api.get(`/v1/messages/status/${id}`, { key: tenant.liveKey }), (r) => r.status === 404, 20_000);
    expect(gone.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    await eventually(() => count(`"WebhookDelivery" WHERE "instanceId" = $1::uuid`, [instance.id]), (n) => n === 0, 20_000);
    await eventually(() => count(`"OutboxEvent" WHERE "instanceId" = $1::uuid`, [instance.id]), (n) => n === 0, 20_000);
    await eventually(() => count(`"QrCode" WHERE "instanceId" = $1::uuid`, [instance.id]), (n) => n === 0, 20_000);
    const after = await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey });
    expect(after.body.data.statistics).toEqual(statistics);

    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/mgw_retention_deleted_rows_total\{table="Message"\} [1-9]/);
    expect(metrics).toMatch(/mgw_retention_deleted_rows_total\{table="WebhookDelivery"\} [1-9]/);
    expect(metrics).toMatch(/mgw_retention_last_run_timestamp_seconds [1-9]/);
    expect(metrics).toMatch(/mgw_table_rows_estimate\{table="Message"\} \d/);
  });

  it('a webhook still failing past the retention is kept, and delivered once its receiver answers, with the same id and bytes', async () => {
    const instance = await connectedV1Instance(api, tenant.liveKey, `failing ${Date.now()}`);
    await api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: tenant.liveKey, body: { url: `${receiver.url}/failing-${instance.id}`, events: ['messages.upsert'] } });
    failing = true;
    const from = newPhone().slice(1);
    const inbound = await api.post('/sandbox/messages', { body: { from, to: instance.phone.slice(1), text: 'wait for me' } });
    expect(inbound.status, inbound.text).toBe(200);
    const calls = () => receiver.received.filter((call) => call.headers['x-webhook-event'] === 'messages.upsert' && call.body.includes(from));
    await eventually(async () => calls().length, (n) => n >= 1, 10_000);
    // The message itself is past its retention and swept: the delivery is not.
    await eventually(() => count(`"Message" WHERE "instanceId" = $1::uuid AND direction = 'in'`, [instance.id]), (n) => n === 0, 20_000);
    expect(await count(`"WebhookDelivery" WHERE "instanceId" = $1::uuid AND status = 'pending'`, [instance.id])).toBe(1);
    failing = false;
    await eventually(() => count(`"WebhookDelivery" WHERE "instanceId" = $1::uuid AND status = 'delivered'`, [instance.id]), (n) => n === 1, 20_000);
    const all = calls();
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(new Set(all.map((call) => call.headers['webhook-id'] ?? call.headers['x-webhook-id'])).size).toBe(1);
    expect(new Set(all.map((call) => call.body)).size).toBe(1);
  });

  it('deleting an instance leaves no row of it in any table, its sandbox files included', async () => {
    const instance = await connectedV1Instance(api, tenant.liveKey, `deleted ${Date.now()}`);
    await api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: tenant.liveKey, body: { url: `${receiver.url}/deleted` } });
    const idempotencyKey = `delete-${instance.id}`;
    const sent = await api.post(`/chat/instances/${instance.id}/send-text`, { cookie: tenant.cookie, headers: { 'idempotency-key': idempotencyKey }, body: { to: newPhone().slice(1), message: 'before the delete' } });
    expect(sent.status, sent.text).toBe(200);
    expect(await count(`"IdempotencyRecord" WHERE key = $1`, [idempotencyKey])).toBe(1);
    const picture = await api.post('/sandbox/messages', { body: { from: newPhone().slice(1), to: instance.phone.slice(1), type: 'image', media: { data: PNG.toString('base64'), mimetype: 'image/png' } } });
    expect(picture.status, picture.text).toBe(200);
    const stored = await eventually(
      () => rows<{ file: string }>(`SELECT media->'source'->>'id' AS file FROM "Message" WHERE "instanceId" = $1::uuid AND media IS NOT NULL`, [instance.id]),
      (list) => list.length === 1,
    );
    const file = stored[0]!.file;
    expect(await count(`"SandboxMedia" WHERE id = $1::uuid`, [file])).toBe(1);

    const deleted = await api.delete(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey });
    expect(deleted.status, deleted.text).toBe(200);

    // Every column of every table that names an instance, and every row that is one.
    const columns = await rows<{ table: string; column: string }>(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns
       WHERE table_schema = 'public' AND (column_name = 'instanceId' OR (table_name = 'Instance' AND column_name = 'id'))`,
    );
    expect(columns.map((c) => c.table).sort()).toEqual(expect.arrayContaining(['EngineKey', 'Instance', 'InstanceLease', 'Message', 'OutboxEvent', 'QrCode', 'SandboxHandoff', 'WebhookDelivery']));
    for (const { table, column } of columns) {
      expect(await count(`"${table}" WHERE "${column}"::text = $1`, [instance.id]), `${table}.${column}`).toBe(0);
    }
    expect(await count(`"SandboxMedia" WHERE id = $1::uuid`, [file])).toBe(0);
    expect(await count(`"IdempotencyRecord" WHERE key = $1`, [idempotencyKey])).toBe(0);
  });
});

/**
 * On PostgreSQL a write, a send and a delete run on different connections: events a write commits while
 * the delete waits for its row go with the delete; a send that read the instance before it is refused, not 500.
 */
describe('deleting an instance while a write about it is in flight — PostgreSQL + Redis', () => {
  const postgres = MODES.find((mode) => mode.database === 'postgres')!;
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  const outside: pg.Client[] = [];

  beforeAll(async () => {
    gw = await startTestGateway(postgres);
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
  }, 60_000);
  afterAll(async () => {
    for (const connection of outside) await connection.end().catch(() => undefined);
    await gw?.close();
  });

  async function connect() {
    const connection = new pg.Client({ connectionString: gw.env.DATABASE_URL });
    outside.push(connection);
    await connection.connect();
    return connection;
  }

  it('an event committed while the delete waited for its message is deleted with the instance', async () => {
    const instance = await connectedV1Instance(api, tenant.liveKey, `in flight ${Date.now()}`);
    const sent = await api.post(`/v1/chat/instances/${instance.id}/messages`, { key: tenant.liveKey, body: { to: newPhone().slice(1), text: 'marked during the delete' } });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.id as string;
    await eventually(() => api.get(`/v1/messages/status/${messageId}`, { key: tenant.liveKey }), (r) => r.body.data?.status === 'delivered');

    // A status write as the gateway's marks make it: the message's row held, an event of it written.
    const writer = await connect();
    const watcher = await connect();
    await writer.query('BEGIN');
    await writer.query(`UPDATE "Message" SET "updatedAt" = now() WHERE id = $1::uuid`, [messageId]);
    await writer.query(
      `INSERT INTO "OutboxEvent" (id, "tenantId", "instanceId", event, data, "createdAt", streams)
       SELECT gen_random_uuid(), "tenantId", "instanceId", 'messages.update', '{}'::jsonb, now(), '{}' FROM "Message" WHERE id = $1::uuid`,
      [messageId],
    );
    const { rows } = await writer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const writerPid = rows[0]!.pid;

    const deleting = api.delete(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey });
    // The delete has started and waits for the row the write holds.
    await eventually(
      async () => (await watcher.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [writerPid])).rows[0]!.n,
      (n) => n > 0,
    );
    await writer.query('COMMIT');

    const deleted = await deleting;
    expect(deleted.status, deleted.text).toBe(200);
    const left = await watcher.query<{ n: number }>(`SELECT count(*)::int AS n FROM "OutboxEvent" WHERE "instanceId" = $1::uuid`, [instance.id]);
    expect(left.rows[0]!.n).toBe(0);
    expect((await watcher.query(`SELECT 1 FROM "Message" WHERE id = $1::uuid`, [messageId])).rowCount).toBe(0);
  });

  it('a send whose instance is deleted while its insert waits for the delete is refused in the envelope, not a 500', async () => {
    const instance = await connectedV1Instance(api, tenant.liveKey, `deleted under a send ${Date.now()}`);
    const send = (text: string) => api.post(`/v1/chat/instances/${instance.id}/messages`, { key: tenant.liveKey, body: { to: newPhone().slice(1), text } });
    const warm = await send('before the delete');
    expect(warm.status, warm.text).toBe(200);

    // The delete holds the instance's row: the send reads the instance as there, and its insert's
    // foreign key check waits for the delete, which then commits.
    const deleter = await connect();
    const watcher = await connect();
    await deleter.query('BEGIN');
    await deleter.query(`DELETE FROM "Instance" WHERE id = $1::uuid`, [instance.id]);
    const { rows } = await deleter.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const deleterPid = rows[0]!.pid;

    const sending = send('during the delete');
    await eventually(
      async () => (await watcher.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [deleterPid])).rows[0]!.n,
      (n) => n > 0,
    );
    await deleter.query('COMMIT');

    const answer = await sending;
    expect([404, 409], answer.text).toContain(answer.status);
    expect(answer.body.success).toBe(false);
    expect((await watcher.query(`SELECT 1 FROM "Message" WHERE "instanceId" = $1::uuid`, [instance.id])).rowCount).toBe(0);
  });
});
