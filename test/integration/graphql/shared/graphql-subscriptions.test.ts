import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../../../src/infra/qr-decode.js';
import { newPhone } from '../../../factories/sandbox.js';
import { createKey, createTenant, login, type TestTenant } from '../../../factories/tenants.js';
import { ConnectionUpdated, CreateInstance, QrUpdated, RegenerateQrCode, RequestQrCode } from '../../../graphql/operations.js';
import { startTestGateway, type TestGateway } from '../../../kit/gateway.js';
import { type Client, client } from '../../../helpers/http.js';
import { type ChildGateway, freePort } from '../../../kit/process.js';
import { startRedis, waitFor } from '../../../helpers/private-redis.js';
import { sharedGatewaySuite } from '../../../kit/suite.js';
import { MODES, REDIS_URL } from '../../../kit/modes.js';
import { executeOnce, sseClient, subscribe, wsClient } from '../../../helpers/subscriptions.js';
import { withTwoNodes } from '../../../kit/worlds/cluster.js';

describe.each(MODES)('GraphQL subscriptions — $name', (mode) => {

  const suite = sharedGatewaySuite(mode, { tenants: ['enterprise', 'pro'] });

  async function newInstance(variant: 'V1' | 'SESSION', auth: { key?: string; cookie?: string }, name = `live ${Math.random().toString(36).slice(2, 8)}`) {
    const created = (await suite.api.operation(CreateInstance, { input: { name, variant } }, auth)).body.data!.createInstance;
    if (created.userErrors.length) throw new Error(JSON.stringify(created));
    return created.instance!.id;
  }

  it('over graphql-ws: a regenerated QR, then connecting and connected once it is scanned', async () => {
    const id = await newInstance('V1', { key: suite.tenant.liveKey });
    const ws = wsClient(suite.gw.url, { key: suite.tenant.liveKey });
    try {
      const qrs = subscribe(ws, QrUpdated, { instanceId: id });
      const statuses = subscribe(ws, ConnectionUpdated, { instanceId: id });
      // Each starts with the current state: the status, and the code handed out at create.
      expect((await statuses.next()).data!.connectionUpdated).toMatchObject({ instanceId: id, status: 'initializing', phoneNumber: null });
      const first = (await qrs.next()).data!.qrUpdated;
      expect(first).toMatchObject({ instanceId: id, qrCode: expect.stringMatching(/^data:image\/png;base64,/) });

      await suite.api.operation(RequestQrCode, { id }, { key: suite.tenant.liveKey });
      expect((await statuses.next()).data!.connectionUpdated).toMatchObject({ instanceId: id, status: 'qr_code', phoneNumber: null });

      const regenerated = (await suite.api.operation(RegenerateQrCode, { id }, { key: suite.tenant.liveKey })).body.data!.regenerateQrCode;
      if (regenerated.userErrors.length) throw new Error(JSON.stringify(regenerated));
      const qr = (await qrs.next()).data!.qrUpdated;
      expect(qr).toEqual({ instanceId: id, qrCode: regenerated.qrCode!.qrCode, expiresAt: expect.any(String), attemptId: regenerated.qrCode!.attemptId });
      expect(Date.parse(qr.expiresAt)).toBeGreaterThan(Date.now());

      const phone = newPhone();
      expect((await suite.api.post('/sandbox/scan', { body: { code: decodeQr(qr.qrCode), phone } })).status).toBe(200);
      const connecting = (await statuses.next()).data!.connectionUpdated;
      const connected = (await statuses.next()).data!.connectionUpdated;
      expect([connecting.status, connected.status]).toEqual(['connecting', 'connected']);
      expect(connected).toMatchObject({ instanceId: id, phoneNumber: phone });
      expect(Date.parse(connected.timestamp)).toBeGreaterThanOrEqual(Date.parse(connecting.timestamp));
      expect(qrs.pending()).toBe(0);
      await Promise.all([qrs.stop(), statuses.stop()]);
    } finally {
      await ws.dispose();
    }
  });

  it('over SSE with a session cookie: a new QR on regenerate, then connecting and connected once it is scanned', async () => {
    const id = await newInstance('V1', { key: suite.tenant.liveKey });
    const sse = sseClient(suite.gw.url, { cookie: suite.tenant.cookie });
    try {
      const qrs = subscribe(sse, QrUpdated, { instanceId: id });
      const statuses = subscribe(sse, ConnectionUpdated, { instanceId: id });
      expect((await statuses.next()).data!.connectionUpdated.status).toBe('initializing');
      const created = (await qrs.next()).data!.qrUpdated;
      const regenerated = (await suite.api.operation(RegenerateQrCode, { id }, { cookie: suite.tenant.cookie })).body.data!.regenerateQrCode;
      if (regenerated.userErrors.length) throw new Error(JSON.stringify(regenerated));
      const qr = (await qrs.next()).data!.qrUpdated;
      expect(qr).toMatchObject({ instanceId: id, attemptId: regenerated.qrCode!.attemptId });
      expect(qr.attemptId).not.toBe(created.attemptId);

      const phone = newPhone();
      await suite.api.post('/sandbox/scan', { body: { code: decodeQr(qr.qrCode), phone } });
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push((await statuses.next()).data!.connectionUpdated);
      expect(seen.map((e) => e.status)).toEqual(['qr_code', 'connecting', 'connected']);
      expect(seen[2]).toMatchObject({ instanceId: id, phoneNumber: phone });
      await Promise.all([qrs.stop(), statuses.stop()]);
    } finally {
      sse.dispose();
    }
  });

  it('shows a session instance its own status words', async () => {
    const id = await newInstance('SESSION', { cookie: suite.tenant.cookie });
    const ws = wsClient(suite.gw.url, { key: suite.tenant.liveKey });
    try {
      const qrs = subscribe(ws, QrUpdated, { instanceId: id });
      const statuses = subscribe(ws, ConnectionUpdated, { instanceId: id });
      // The current status first: created, or qr once the automatic first code is out.
      expect(['created', 'qr']).toContain((await statuses.next()).data!.connectionUpdated.status);
      // The automatic first code is out before regenerating (else it could land after, and replace, the regenerated one).
      let qr = (await qrs.next()).data!.qrUpdated;
      const regenerated = (await suite.api.operation(RegenerateQrCode, { id }, { cookie: suite.tenant.cookie })).body.data!.regenerateQrCode;
      if (regenerated.userErrors.length) throw new Error(JSON.stringify(regenerated));
      while (qr.attemptId !== regenerated.qrCode!.attemptId) qr = (await qrs.next()).data!.qrUpdated;
      await suite.api.post('/sandbox/scan', { body: { code: decodeQr(qr.qrCode), phone: newPhone() } });
      const seen: string[] = [];
      while (seen.at(-1) !== 'connected') seen.push((await statuses.next()).data!.connectionUpdated.status);
      // Session words: the pairing shows as "qr" until it is connected.
      expect(seen.at(-1)).toBe('connected');
      expect(seen.slice(0, -1).every((status) => status === 'qr')).toBe(true);
      await Promise.all([qrs.stop(), statuses.stop()]);
    } finally {
      await ws.dispose();
    }
  });

  it('takes the session cookie on the WebSocket upgrade request', async () => {
    const id = await newInstance('V1', { key: suite.tenant.liveKey });
    const ws = wsClient(suite.gw.url, { cookie: suite.tenant.cookie });
    try {
      const statuses = subscribe(ws, ConnectionUpdated, { instanceId: id });
      expect((await statuses.next()).data!.connectionUpdated.status).toBe('initializing');
      await suite.api.operation(RequestQrCode, { id }, { key: suite.tenant.liveKey });
      expect((await statuses.next()).data!.connectionUpdated.status).toBe('qr_code');
      await statuses.stop();
    } finally {
      await ws.dispose();
    }
  });

  it('refuses unauthenticated connections: WebSocket closed with 4401 (clients stop retrying), SSE answered 401', async () => {
    const id = await newInstance('V1', { key: suite.tenant.liveKey });
    for (const credentials of [{}, { key: 'mgw_live_not-a-key' }, { cookie: 'auth-session=forged' }]) {
      const closed = new Promise<number>((resolve) => {
        const ws = wsClient(suite.gw.url, credentials, (code) => resolve(code));
        const sub = subscribe(ws, QrUpdated, { instanceId: id });
        void sub.ended.then(() => ws.dispose());
      });
      expect(await closed).toBe(4401);
    }
    const sse = await suite.api.post('/graphql', {
      headers: { accept: 'text/event-stream' },
      body: { query: 'subscription ($id: ID!) { qrUpdated(instanceId: $id) { attemptId } }', variables: { id } },
    });
    expect(sse.status).toBe(401);
    expect(sse.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'unauthorized' } }] });
  });

  it("refuses a subscription to another tenant's instance or an unknown one, on both transports", async () => {
    const theirs = await newInstance('V1', { key: suite.other.liveKey });
    const ws = wsClient(suite.gw.url, { key: suite.tenant.liveKey });
    const sse = sseClient(suite.gw.url, { key: suite.tenant.liveKey });
    try {
      for (const transport of [ws, sse]) {
        const refused = await subscribe(transport, QrUpdated, { instanceId: theirs }).next();
        expect(refused.data ?? null).toBeNull();
        expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'forbidden' } });
        const unknown = await subscribe(transport, ConnectionUpdated, { instanceId: '00000000-0000-4000-8000-000000000000' }).next();
        expect(unknown.errors?.[0]).toMatchObject({ extensions: { code: 'not_found' } });
      }
    } finally {
      await ws.dispose();
      sse.dispose();
    }
  });

  it('applies the document guards over the WebSocket too', async () => {
    const ws = wsClient(suite.gw.url, { key: suite.tenant.liveKey });
    try {
      const deep = 'query { instances { edges { node { messages { edges { node { instance { messages { edges { node { instance { messages { edges { node { id } } } } } } } } } } } } } } }';
      const result = await executeOnce(ws, deep);
      expect(result.errors?.[0]?.message).toMatch(/depth/i);
    } finally {
      await ws.dispose();
    }
    // A message over GRAPHQL_MAX_BODY_BYTES closes the socket (1009 message too big).
    const closed = new Promise<number>((resolve) => {
      const big = wsClient(suite.gw.url, { key: suite.tenant.liveKey }, (code) => resolve(code));
      executeOnce(big, `{ me { __typename } } # ${'x'.repeat(110 * 1024)}`).catch(() => undefined).finally(() => void big.dispose());
    });
    expect(await closed).toBe(1009);
  });
});

describe('GraphQL over WebSocket — rate limits', () => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  beforeAll(async () => {
    gw = await startTestGateway(MODES[0]!, { env: { RATE_LIMIT_PER_MINUTE: '3' } });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
  });
  afterAll(() => gw?.close());

  it('counts each operation against the caller\'s limits and refuses past them', async () => {
    const ws = wsClient(gw.url, { key: tenant.liveKey });
    try {
      const ask = () => executeOnce(ws, '{ me { __typename } }');
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await ask());
      const refused = answers.filter((a) => a.errors?.[0]?.extensions?.code === 'rate_limit_exceeded');
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]!.errors![0]!.extensions!.retryAfter).toBeGreaterThan(0);
      expect(answers[0]!.data).toEqual({ me: { __typename: 'Me' } });
    } finally {
      await ws.dispose();
    }
  });
});

const CROSS_PROCESS_MS = 20_000;

describe('GraphQL subscriptions across gateway processes sharing Redis', () => {
  let a: TestGateway;
  let b: ChildGateway;
  let tenant: TestTenant;

  withTwoNodes((nodes) => ({ a, b } = nodes));
  beforeAll(async () => {
    tenant = await createTenant(a.gateway, client(a.url));
  });

  // An event crosses two processes and Redis, one of them a child process: on a machine shared with
  // other CPU-heavy jobs that takes more than the helper's 5 s, so each event gets CROSS_PROCESS_MS.
  it('delivers an event produced by one process to a subscriber on the other, both ways', { timeout: 4 * CROSS_PROCESS_MS }, async () => {
    for (const [subscriber, producer] of [[b.url, a.url], [a.url, b.url]] as const) {
      const api = client(producer);
      const created = (await api.operation(CreateInstance, { input: { name: `cross ${subscriber.slice(-5)}` } }, { key: tenant.liveKey })).body.data!.createInstance;
      if (created.userErrors.length) throw new Error(JSON.stringify(created));
      const id = created.instance!.id;
      const ws = wsClient(subscriber, { key: tenant.liveKey });
      try {
        const qrs = subscribe(ws, QrUpdated, { instanceId: id });
        // The code from create, read by the subscriber's node.
        expect((await qrs.next(CROSS_PROCESS_MS)).data!.qrUpdated.attemptId).toBe(created.qrCode!.attemptId);
        const regenerated = (await api.operation(RegenerateQrCode, { id }, { key: tenant.liveKey })).body.data!.regenerateQrCode;
        if (regenerated.userErrors.length) throw new Error(JSON.stringify(regenerated));
        expect((await qrs.next(CROSS_PROCESS_MS)).data!.qrUpdated.attemptId).toBe(regenerated.qrCode!.attemptId);
        await qrs.stop();
      } finally {
        await ws.dispose();
      }
    }
  });
});

describe('GraphQL long-lived connections after the caller loses access', () => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  let instanceId: string;
  beforeAll(async () => {
    gw = await startTestGateway(MODES[0]!, { env: { GRAPHQL_WS_REAUTH_S: '1' } });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    const created = (await api.operation(CreateInstance, { input: { name: 'revoked watch' } }, { key: tenant.liveKey })).body.data!.createInstance;
    if (created.userErrors.length) throw new Error(JSON.stringify(created));
    instanceId = created.instance!.id;
  });
  afterAll(() => gw?.close());

  async function revocableKey() {
    const key = await createKey(api, tenant.cookie, { name: `short-lived ${Math.random()}` });
    const listed = await api.get('/api-keys', { key });
    const id = (listed.body.data as Array<{ id: string; keyPrefix: string }>).find((k) => key.startsWith(k.keyPrefix))!.id;
    return { key, revoke: () => api.delete(`/api-keys/${id}`, { cookie: tenant.cookie }) };
  }

  it('closes a WebSocket with 4401 once its key is revoked', async () => {
    const { key, revoke } = await revocableKey();
    let closedWith: number | undefined;
    const ws = wsClient(gw.url, { key }, (code) => (closedWith = code));
    const qrs = subscribe(ws, QrUpdated, { instanceId });
    // Attached: a subscription starts with the current state.
    await qrs.next();
    expect(closedWith).toBeUndefined();
    expect((await revoke()).status).toBe(200);
    await qrs.ended;
    expect(closedWith).toBe(4401);
    await ws.dispose();
  });

  it('ends an SSE stream once its key is revoked', async () => {
    const { key, revoke } = await revocableKey();
    const sse = sseClient(gw.url, { key });
    const qrs = subscribe(sse, QrUpdated, { instanceId });
    await qrs.next();
    await revoke();
    const started = Date.now();
    await qrs.ended;
    expect(Date.now() - started).toBeLessThan(5000);
    // Nothing more arrives: a new QR code after the end reaches nobody.
    await api.operation(RegenerateQrCode, { id: instanceId }, { key: tenant.liveKey });
    await new Promise((r) => setTimeout(r, 300));
    expect(qrs.pending()).toBe(0);
    sse.dispose();
  });

  it('closes a WebSocket opened with a session cookie once the session ends', async () => {
    const cookie = await login(api, tenant.email, tenant.password);
    let closedWith: number | undefined;
    const ws = wsClient(gw.url, { cookie }, (code) => (closedWith = code));
    const statuses = subscribe(ws, ConnectionUpdated, { instanceId });
    await statuses.next();
    expect(closedWith).toBeUndefined();
    expect((await api.delete('/auth/sessions', { cookie })).status).toBeLessThan(300);
    await statuses.ended;
    expect(closedWith).toBe(4401);
    await ws.dispose();
  });
});

describe('GraphQL subscriptions through a Redis outage', () => {
  it('keeps answering mutations while Redis is down and re-sends the current state to open subscriptions once it is back', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const gw = await startTestGateway(MODES.find((m) => m.redis)!, { env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    const api = client(gw.url);
    try {
      const tenant = await createTenant(gw.gateway, api);
      const created = (await api.operation(CreateInstance, { input: { name: 'through an outage' } }, { key: tenant.liveKey })).body.data!.createInstance;
      if (created.userErrors.length) throw new Error(JSON.stringify(created));
      const id = created.instance!.id;
      const live = wsClient(gw.url, { key: tenant.liveKey });
      const qrs = subscribe(live, QrUpdated, { instanceId: id });
      const statuses = subscribe(live, ConnectionUpdated, { instanceId: id });
      expect((await qrs.next()).data!.qrUpdated.attemptId).toBe(created.qrCode!.attemptId);
      expect((await statuses.next()).data!.connectionUpdated.status).toBe('initializing');
      const regenerate = async () => {
        const answer = await api.operation(RegenerateQrCode, { id }, { key: tenant.liveKey });
        expect(answer.status).toBe(200);
        const result = answer.body.data!.regenerateQrCode;
        if (result.userErrors.length) throw new Error(JSON.stringify(result));
        return result.qrCode!.attemptId;
      };
      const before = await regenerate();
      expect((await qrs.next()).data!.qrUpdated.attemptId).toBe(before);
      expect((await statuses.next()).data!.connectionUpdated.status).toBe('qr_code');

      redis.kill('SIGKILL');
      await waitFor(async () => (await api.get('/readyz')).status === 503);
      // The changes and their webhooks are in the database; only the live copies cannot travel.
      const missed = await regenerate();
      const liveQr = await api.get(`/v1/chat/instances/${id}/qr`, { key: tenant.liveKey });
      const connected = newPhone();
      expect((await api.post('/sandbox/scan', { body: { code: decodeQr(liveQr.body.data.qrCode), phone: connected } })).status).toBe(200);

      redis = await startRedis(port);
      await waitFor(async () => (await api.get('/readyz')).status === 200);
      // Once the feed works again, the subscriber learns the state it missed without any new event.
      const status = (await statuses.next(10_000)).data!.connectionUpdated;
      expect(status).toMatchObject({ instanceId: id, status: 'connected', phoneNumber: connected });
      expect(missed).not.toBe(before);
      await qrs.stop();
      await statuses.stop();
      await live.dispose();
    } finally {
      await gw.close();
      redis.kill('SIGKILL');
    }
  }, 60_000);
});
