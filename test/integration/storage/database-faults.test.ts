import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, phoneInbox, sleep } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client, type Client, failure } from '../../helpers/http.js';
import { MODES, POSTGRES_ADMIN_URL } from '../../kit/modes.js';
import { createTestDatabase } from '../../kit/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { SendMessage } from '../../graphql/operations.js';

const postgres = MODES.find((mode) => mode.database === 'postgres')!;
const newPhoneDigits = () => `55118${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

/** The gateway reaches PostgreSQL through a proxy that can cut or stall it. */
describe('database faults (PostgreSQL behind a TCP proxy, Redis)', () => {
  let proxy: TcpProxy;
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let dropDatabase: () => Promise<void>;
  const TIMEOUT_MS = 1000;

  beforeAll(async () => {
    const admin = new URL(POSTGRES_ADMIN_URL);
    proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    const db = await createTestDatabase({ migrated: true });
    dropDatabase = db.drop;
    const proxied = new URL(db.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    gw = await startTestGateway(postgres, {
      reuse: { env: { DATABASE_URL: proxied.toString() } },
      // The outage itself is logged (dispatch and sweep failures while the database is away).
      expectedErrors: [/The database is not answering/],
      env: {
        DATABASE_CONNECT_TIMEOUT_MS: String(TIMEOUT_MS),
        DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS),
        DATABASE_TRANSACTION_TIMEOUT_MS: String(3 * TIMEOUT_MS),
        // Long enough to cut the database between "sent" and the phone's delivery receipt.
        SANDBOX_DELIVERY_DELAY_MS: '1500',
      },
    });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    await connectedV1Instance(api, tenant.liveKey, 'fault-line');
  });
  afterAll(async () => {
    proxy?.restore();
    await gw?.close();
    await proxy?.close();
    await dropDatabase?.();
  });

  const send = (to: string, text: string) => api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text } });

  it('answers 503 service_unavailable with Retry-After while the database is cut, never a 500, and recovers', async () => {
    proxy.cut();
    try {
      const sent = await send(newPhoneDigits(), 'during the cut');
      expect(sent.status).toBe(503);
      expect(sent.body).toEqual(failure('service_unavailable'));
      expect(Number(sent.headers.get('retry-after'))).toBeGreaterThan(0);

      const login = await api.post('/auth/sessions', { body: { email: tenant.email, password: tenant.password } });
      expect(login.status).toBe(503);
      const list = await api.get('/v1/chat/instances', { key: tenant.liveKey });
      expect(list.status).toBe(503);
      const scan = await api.post('/sandbox/scan', { body: { code: 'sandbox:nothing', phone: '+5511900000001' } });
      expect(scan.status).toBe(503);

      const graphql = await api.operation(SendMessage, { input: { to: newPhoneDigits(), text: 'via graphql' } }, { key: tenant.liveKey });
      expect(graphql.body.errors?.map((e) => e.extensions)).toEqual([{ code: 'service_unavailable', retryAfter: expect.any(Number) }]);

      const started = Date.now();
      const ready = await api.get('/readyz');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(ready.status).toBe(503);
    } finally {
      proxy.restore();
    }
    const after = await eventually(() => send(newPhoneDigits(), 'after the cut'), (r) => r.status === 200, 10_000);
    expect(after.body.data.status).toBe('queued');
    expect((await api.get('/readyz')).status).toBe(200);
  });

  it('fails fast during a 10 s stall, keeps /readyz answering, and delivers every accepted message afterwards', async () => {
    const to = newPhoneDigits();
    const accepted: string[] = [];
    const unanswered: number[] = [];
    // Sends already on their way when the database goes silent.
    const inFlight = Array.from({ length: 10 }, (_, i) => send(to, `before the stall ${i}`));
    proxy.stall();
    const stallEnds = Date.now() + 10_000;
    try {
      for (const [i, response] of (await Promise.all(inFlight)).entries()) {
        expect([200, 503]).toContain(response.status);
        if (response.status === 200) accepted.push(response.body.data.id);
        else unanswered.push(i);
      }
      const started = Date.now();
      const during = await send(to, 'during the stall');
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).not.toBeNull();
      // Connect timeout plus statement timeout, and some room for a busy machine.
      expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS + 1500);

      const readyStarted = Date.now();
      const ready = await api.get('/readyz');
      expect(Date.now() - readyStarted).toBeLessThan(1000);
      expect(ready.status).toBe(503);
      await sleep(Math.max(0, stallEnds - Date.now()));
    } finally {
      proxy.restore();
    }
    for (let i = 0; i < 5; i++) {
      const response = await eventually(() => send(to, `after the stall ${i}`), (r) => r.status === 200, 10_000);
      accepted.push(response.body.data.id);
    }
    // A send answered 503 may still have been stored: its write committed, but the answer was caught
    // in the stall (clients retry such sends with an Idempotency-Key). Nothing answered 200 is lost.
    const ambiguous = new Set(unanswered.map((i) => `before the stall ${i}`));
    const inbox = await eventually(
      () => phoneInbox(api, to),
      (r) => accepted.every((id) => r.body.data?.some((m: { id: string }) => m.id === id)),
      20_000,
    );
    for (const message of inbox.body.data as Array<{ id: string; text: string }>) {
      if (!accepted.includes(message.id)) expect(ambiguous.has(message.text), `${message.text} was answered 200 or 503`).toBe(true);
    }
  });

  it('stores a delivery receipt that failed to store once the database is back', async () => {
    const to = newPhoneDigits();
    const sent = await send(to, 'receipt during an outage');
    expect(sent.status).toBe(200);
    const id = sent.body.data.id;
    await eventually(() => api.get(`/v1/messages/status/${id}`, { key: tenant.liveKey }), (r) => r.body.data?.status === 'sent');
    proxy.cut();
    // The phone reports delivery 1.5 s after it received the message: that report fails to store.
    await sleep(2500);
    proxy.restore();
    const delivered = await eventually(
      () => api.get(`/v1/messages/status/${id}`, { key: tenant.liveKey }),
      (r) => r.body.data?.status === 'delivered',
      15_000,
    );
    expect(delivered.body.data.timestamps.delivered).not.toBeNull();
  });
});
