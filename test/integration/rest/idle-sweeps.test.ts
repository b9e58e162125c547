import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINTENANCE } from '../../../src/infra/maintenance.js';
import { connectedV1Instance, eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { createTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite, type GatewaySuite } from '../../kit/suite.js';

/**
 * The sweeps' rhythm for these suites: the production one, but backing off to 10 s rather than 30 s, so
 * "sent by the backed-off sweep" takes seconds (the mechanism is the same; only the pause is shorter).
 */
const SWEEPS = { ...MAINTENANCE, idleMs: 10_000 };

/** The node's safety sweep has backed off: nothing it can move is queued. */
const backedOff = (gw: TestGateway) => eventually(async () => gw.gateway.infra.maintenance.plannedInMs(), (ms) => ms > SWEEPS.busyMs && ms < Infinity, 15_000);

async function connected(suite: GatewaySuite, key: string, name: string) {
  const instance = await connectedV1Instance(suite.api, key, name);
  await eventually(() => suite.api.get(`/v1/chat/instances/${instance.id}`, { key }), (r) => r.body.data.status === 'connected');
  return instance;
}

describe.each(MODES)('an idle gateway — $name', (mode) => {
  const suite = gatewaySuite(mode, { infra: { maintenance: SWEEPS } });

  it(
    'a message whose announcement was lost is still sent, by the backed-off sweep',
    async () => {
      const tenant = suite.tenants[0]!;
      const instance = await connected(suite, tenant.liveKey, 'unannounced');
      await backedOff(suite.gw);
      const to = newPhone().slice(1);
      // Stored queued for the instance with nobody told: what a lost notification leaves.
      const unannounced = await suite.gw.gateway.infra.db.prisma.message.create({
        data: { tenantId: tenant.tenantId, instanceId: instance.id, direction: 'out', to, text: 'never announced', status: 'queued', mode: 'production', queuedAt: new Date() },
      });
      const inbox = await eventually(() => phoneInbox(suite.api, to), (r) => r.body.data?.length === 1, SWEEPS.idleMs + 15_000);
      expect(inbox.body.data[0].id).toBe(unannounced.id);
    },
    SWEEPS.idleMs + 30_000,
  );

  it('an idle node that accepts a send dispatches it at once, and sweeps often again while it waits', async () => {
    const tenant = suite.tenants[0]!;
    await connected(suite, tenant.liveKey, 'woken');
    await backedOff(suite.gw);
    const to = newPhone().slice(1);
    const sent = await suite.api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: 'after a quiet spell' } });
    expect(sent.status).toBe(200);
    expect(suite.gw.gateway.infra.maintenance.plannedInMs()).toBeLessThanOrEqual(SWEEPS.busyMs);
    // Announced, not swept: it arrives long before the backed-off sweep could have sent it.
    const inbox = await eventually(() => phoneInbox(suite.api, to), (r) => r.body.data?.length === 1, SWEEPS.idleMs / 2);
    expect(inbox.body.data[0].id).toBe(sent.body.data.id);
  });
});

describe('an idle node of several — PostgreSQL + Redis', () => {
  const mode = MODES.find((m) => m.redis)!;
  const nodes: TestGateway[] = [];

  beforeAll(async () => {
    const shared = { REDIS_PREFIX: `mgwtest:${randomBytes(4).toString('hex')}:` };
    nodes.push(await startTestGateway(mode, { env: shared }));
    nodes.push(await startTestGateway(mode, { env: shared, reuse: { env: nodes[0]!.env } }));
  });
  afterAll(async () => {
    for (const node of nodes.reverse()) await node.close();
  });

  it("a send accepted by a node that owns nothing reaches the owner's dispatch at once", async () => {
    const [first, second] = nodes as [TestGateway, TestGateway];
    const api = client(first.url);
    const tenant = await createTenant(first.gateway, api);
    const instance = await connectedV1Instance(api, tenant.liveKey, 'elsewhere');
    await eventually(() => api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected');
    const ownerOf = async () => nodes.find((node) => node.gateway.infra.placement.ownership.leaseOf(instance.id));
    const owner = (await eventually(ownerOf, Boolean))!;
    const other = owner === first ? second : first;
    await Promise.all([backedOff(owner), backedOff(other)]);

    const to = newPhone().slice(1);
    const sent = await client(other.url).post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: 'from the quiet node' } });
    expect(sent.status).toBe(200);
    const inbox = await eventually(() => phoneInbox(api, to), (r) => r.body.data?.length === 1, MAINTENANCE.idleMs / 3);
    expect(inbox.body.data[0].id).toBe(sent.body.data.id);
  });
});
