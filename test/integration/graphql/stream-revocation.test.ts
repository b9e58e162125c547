import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTenant, login, type TestTenant } from '../../factories/tenants.js';
import { ConnectionUpdated, CreateInstance } from '../../graphql/operations.js';
import { distEntry } from '../../kit/process.js';
import { type Client, client } from '../../helpers/http.js';
import { MODES, REDIS_URL } from '../../kit/modes.js';
import { type Credentials, sseClient, subscribe, wsClient } from '../../helpers/subscriptions.js';
import { gatewaySuite } from '../../kit/suite.js';
import { type TwoNodes, withTwoNodes } from '../../kit/worlds/cluster.js';

/**
 * The periodic re-check of long-lived connections is pushed out of reach (an hour): a stream that
 * ends here was ended by the revocation or the sign-out itself, told to every node.
 */
const NO_PERIODIC_CHECK = { GRAPHQL_WS_REAUTH_S: '3600' };
/** Generous, for a busy machine; far below the periodic check. */
const CLOSE_DEADLINE_MS = 15_000;

const run = promisify(execFile);

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not within ${CLOSE_DEADLINE_MS} ms`)), CLOSE_DEADLINE_MS);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error as Error)),
    );
  });
}

/** A WebSocket subscribed to an instance's connection status, attached (its first event read), and its close code once closed. */
async function openSocket(url: string, credentials: Credentials, instanceId: string) {
  let closedWith: number | undefined;
  let closed!: (code: number) => void;
  const closes = new Promise<number>((resolve) => (closed = resolve));
  const ws = wsClient(url, credentials, (code) => {
    closedWith = code;
    closed(code);
  });
  const statuses = subscribe(ws, ConnectionUpdated, { instanceId });
  expect((await statuses.next()).data?.connectionUpdated.status).toBeDefined();
  return { ws, statuses, closes, closedWith: () => closedWith };
}

/** An SSE stream subscribed to an instance's connection status, attached. */
async function openStream(url: string, credentials: Credentials, instanceId: string) {
  const sse = sseClient(url, credentials);
  const statuses = subscribe(sse, ConnectionUpdated, { instanceId });
  await statuses.next();
  let ended = false;
  void statuses.ended.then(() => (ended = true));
  return { sse, statuses, ended: () => ended };
}

async function newInstance(api: Client, key: string) {
  const created = (await api.operation(CreateInstance, { input: { name: `streams ${Math.random().toString(36).slice(2, 8)}` } }, { key })).body.data!.createInstance;
  if (created.userErrors.length) throw new Error(JSON.stringify(created));
  return created.instance!.id;
}

async function revocableKey(api: Client, tenant: TestTenant) {
  const key = await createKey(api, tenant.cookie, { name: `revocable ${Math.random()}` });
  const listed = await api.get('/api-keys', { key });
  const id = (listed.body.data as Array<{ id: string; keyPrefix: string }>).find((k) => key.startsWith(k.keyPrefix))!.id;
  return { key, revoke: () => api.delete(`/api-keys/${id}`, { cookie: tenant.cookie }) };
}

describe.each(MODES)('Streams of a caller that loses access end at once — $name', (mode) => {
  const suite = gatewaySuite(mode, { env: NO_PERIODIC_CHECK });
  let instanceId: string;
  beforeAll(async () => {
    instanceId = await newInstance(suite.api, suite.tenants[0]!.liveKey);
  });

  it("closes a revoked key's WebSockets (4401) and ends its SSE streams; another key's stay open", async () => {
    const tenant = suite.tenants[0]!;
    const { key, revoke } = await revocableKey(suite.api, tenant);
    const socket = await openSocket(suite.gw.url, { key }, instanceId);
    const stream = await openStream(suite.gw.url, { key }, instanceId);
    const other = await openSocket(suite.gw.url, { key: tenant.liveKey }, instanceId);
    expect(socket.closedWith()).toBeUndefined();
    expect(stream.ended()).toBe(false);

    expect((await revoke()).status).toBe(200);
    expect(await within(socket.closes, 'the WebSocket closed')).toBe(4401);
    await within(stream.statuses.ended, 'the SSE stream ended');
    expect(other.closedWith()).toBeUndefined();
    await other.ws.dispose();
    stream.sse.dispose();
  });

  it("closes a signed-out session's WebSockets and SSE streams; the user's other session keeps its own", async () => {
    const tenant = suite.tenants[0]!;
    const cookie = await login(suite.api, tenant.email, tenant.password);
    const socket = await openSocket(suite.gw.url, { cookie }, instanceId);
    const stream = await openStream(suite.gw.url, { cookie }, instanceId);
    const other = await openSocket(suite.gw.url, { cookie: tenant.cookie }, instanceId);

    expect((await suite.api.delete('/auth/sessions', { cookie })).status).toBeLessThan(300);
    expect(await within(socket.closes, 'the WebSocket closed')).toBe(4401);
    await within(stream.statuses.ended, 'the SSE stream ended');
    // The same user's other session was checked again and kept.
    const again = await openSocket(suite.gw.url, { cookie: tenant.cookie }, instanceId);
    expect(other.closedWith()).toBeUndefined();
    await Promise.all([other.ws.dispose(), again.ws.dispose()]);
    stream.sse.dispose();
  });

  it("closes every session's streams of a user whose password changed; the tenant's keys keep theirs", async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    const own = await newInstance(suite.api, tenant.liveKey);
    const first = await openSocket(suite.gw.url, { cookie: tenant.cookie }, own);
    const second = await openSocket(suite.gw.url, { cookie: await login(suite.api, tenant.email, tenant.password) }, own);
    const stream = await openStream(suite.gw.url, { cookie: tenant.cookie }, own);
    const keyed = await openSocket(suite.gw.url, { key: tenant.liveKey }, own);

    // What `npm run cli -- users:reset-password` runs.
    await suite.gw.gateway.services.auth.resetPassword({ email: tenant.email, password: 'a-brand-new-password' });
    expect(await within(first.closes, 'the first session closed')).toBe(4401);
    expect(await within(second.closes, 'the second session closed')).toBe(4401);
    await within(stream.statuses.ended, 'the SSE stream ended');
    expect(keyed.closedWith()).toBeUndefined();
    await keyed.ws.dispose();
    stream.sse.dispose();
  });
});

describe('Streams of a caller that loses access end at once on the other node too (two nodes on PostgreSQL + Redis)', () => {
  let nodes: TwoNodes;
  withTwoNodes((started) => (nodes = started), { env: NO_PERIODIC_CHECK });
  let api: Client;
  let tenant: TestTenant;
  let instanceId: string;
  beforeAll(async () => {
    api = client(nodes.a.url);
    tenant = await createTenant(nodes.a.gateway, api);
    instanceId = await newInstance(api, tenant.liveKey);
  });

  it('a key revoked on one node: its WebSocket and SSE stream on the other close', async () => {
    const { key, revoke } = await revocableKey(api, tenant);
    const socket = await openSocket(nodes.b.url, { key }, instanceId);
    const stream = await openStream(nodes.b.url, { key }, instanceId);
    expect((await revoke()).status).toBe(200);
    expect(await within(socket.closes, 'the WebSocket on node b closed')).toBe(4401);
    await within(stream.statuses.ended, 'the SSE stream on node b ended');
    stream.sse.dispose();
  });

  it('a sign-out on one node: the session closes on the other', async () => {
    const cookie = await login(api, tenant.email, tenant.password);
    const socket = await openSocket(nodes.b.url, { cookie }, instanceId);
    expect((await client(nodes.a.url).delete('/auth/sessions', { cookie })).status).toBeLessThan(300);
    expect(await within(socket.closes, 'the WebSocket on node b closed')).toBe(4401);
  });

  it("a password reset by the CLI (a process of its own): the user's sessions close on both nodes", async () => {
    const user = await createTenant(nodes.a.gateway, api);
    const own = await newInstance(api, user.liveKey);
    const onA = await openSocket(nodes.a.url, { cookie: user.cookie }, own);
    const onB = await openSocket(nodes.b.url, { cookie: await login(api, user.email, user.password) }, own);
    const keyed = await openSocket(nodes.b.url, { key: user.liveKey }, own);
    const env = { PATH: process.env.PATH ?? '', ...nodes.a.env, REDIS_URL, REDIS_PREFIX: nodes.a.gateway.infra.config.REDIS_PREFIX, GATEWAY_CLI_PASSWORD: 'a-brand-new-password' };
    const reset = await run(process.execPath, [...distEntry('cli'), 'users:reset-password', '--email', user.email], { env, timeout: 90_000 });
    expect(JSON.parse(reset.stdout)).toMatchObject({ email: user.email, sessionsEnded: true });
    expect(await within(onA.closes, 'the session on node a closed')).toBe(4401);
    expect(await within(onB.closes, 'the session on node b closed')).toBe(4401);
    expect(keyed.closedWith()).toBeUndefined();
    await keyed.ws.dispose();
  });
});
