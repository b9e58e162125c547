import { describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, phoneInbox } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import type { TestGateway } from '../../kit/gateway.js';
import { client, type Client } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';
import { MAINTENANCE } from '../../../src/infra/maintenance.js';
import { withTwoNodes } from '../../kit/worlds/cluster.js';
import type { ChildGateway } from '../../kit/process.js';

const newPhoneDigits = () => `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

/** Every message of `ids` as the status endpoint shows it. */
async function statuses(api: Client, key: string, ids: string[]) {
  return Promise.all(ids.map(async (id) => (await api.get(`/v1/messages/status/${id}`, { key })).body.data));
}

describe.each(MODES)('routing of /v1/messages/send — $name', (mode) => {
  // The sweep test inserts what no announcement reports: the sweep comes back within a second.
  const suite = gatewaySuite(mode, { infra: { maintenance: { ...MAINTENANCE, idleMs: 1000 } } });

  it('50 concurrent routed sends to a tenant with one connected instance all reach the phone', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    await connectedV1Instance(suite.api, tenant.liveKey, 'only-line');
    const to = newPhoneDigits();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `burst ${i}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const ids = answers.map((a) => a.body.data.id as string);
    const inbox = await eventually(() => phoneInbox(suite.api, to), (r) => r.body.data?.length === 50, 15_000);
    expect(new Set(inbox.body.data.map((m: { id: string }) => m.id))).toEqual(new Set(ids));
    const stored = await statuses(suite.api, tenant.liveKey, ids);
    expect(stored.every((m) => m.instanceId !== null && m.status !== 'queued')).toBe(true);
  });

  it('re-routes messages queued without an instance once a usable instance exists (sweep)', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    const instance = await connectedV1Instance(suite.api, tenant.liveKey, 'swept-line');
    const to = newPhoneDigits();
    // A message left behind without an instance while one is connected (what a lost race used to leave).
    const stranded = await suite.gw.gateway.infra.db.prisma.message.create({
      data: { tenantId: tenant.tenantId, direction: 'out', to, text: 'left behind', status: 'queued', mode: 'production', queuedAt: new Date() },
    });
    const inbox = await eventually(() => phoneInbox(suite.api, to), (r) => r.body.data?.length === 1, 15_000);
    expect(inbox.body.data[0].id).toBe(stranded.id);
    const [stored] = await statuses(suite.api, tenant.liveKey, [stranded.id]);
    expect(stored.instanceId).toBe(instance.id);
  });

  it('never routes to an inactive instance, and hands waiting messages over when one is activated', async () => {
    const tenant = await createTenant(suite.gw.gateway, suite.api);
    const paused = await connectedV1Instance(suite.api, tenant.liveKey, 'paused-line');
    const other = await suite.api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'never-scanned' } });
    expect(other.status).toBe(201);
    expect((await suite.api.post(`/v1/chat/instances/${paused.id}/toggle`, { key: tenant.liveKey })).body.data.active).toBe(false);

    const to = newPhoneDigits();
    // The never-scanned instance is active, so the message is accepted and held; the paused one must not take it.
    const sent = await suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: 'waits for an active line' } });
    expect(sent.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await phoneInbox(suite.api, to)).body.data ?? []).toEqual([]);
    const [held] = await statuses(suite.api, tenant.liveKey, [sent.body.data.id]);
    expect(held).toMatchObject({ status: 'queued', instanceId: null });

    // Reconnecting the paused instance does not hand it routed messages either.
    await suite.api.post(`/sandbox/instances/${paused.id}/drop`);
    await eventually(() => suite.api.get(`/v1/chat/instances/${paused.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await phoneInbox(suite.api, to)).body.data ?? []).toEqual([]);

    // Activating it hands the waiting message over at once.
    expect((await suite.api.post(`/v1/chat/instances/${paused.id}/toggle`, { key: tenant.liveKey })).body.data.active).toBe(true);
    const inbox = await eventually(() => phoneInbox(suite.api, to), (r) => r.body.data?.length === 1, 3000);
    expect(inbox.body.data[0].id).toBe(sent.body.data.id);
  });

  it('spreads routed sends over several connected instances', async () => {
    const tenant: TestTenant = await createTenant(suite.gw.gateway, suite.api);
    const a = await connectedV1Instance(suite.api, tenant.liveKey, 'line-a');
    const b = await connectedV1Instance(suite.api, tenant.liveKey, 'line-b');
    const to = newPhoneDigits();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `spread ${i}` } }));
    const stored = await statuses(suite.api, tenant.liveKey, answers.map((r) => r.body.data.id));
    const used = stored.map((m) => m.instanceId);
    expect(used.filter((id) => id === a.id)).toHaveLength(3);
    expect(used.filter((id) => id === b.id)).toHaveLength(3);
  });
});

describe('routing across two gateway processes sharing PostgreSQL and Redis', () => {
  let a: TestGateway;
  let b: ChildGateway;

  withTwoNodes((nodes) => ({ a, b } = nodes));

  it('50 concurrent routed sends spread over both nodes all reach the phone', async () => {
    const apiA = client(a.url);
    const apiB = client(b.url);
    const tenant = await createTenant(a.gateway, apiA);
    await connectedV1Instance(apiA, tenant.liveKey, 'shared-line');
    const to = newPhoneDigits();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? apiA : apiB).post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `two nodes ${i}` } })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const inbox = await eventually(() => phoneInbox(apiB, to), (r) => r.body.data?.length === 50, 20_000);
    expect(new Set(inbox.body.data.map((m: { id: string }) => m.id))).toEqual(new Set(answers.map((r) => r.body.data.id)));
  });
});
