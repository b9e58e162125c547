import { describe, expect, it } from 'vitest';
import { LeaseLost } from '../../../src/domain/ownership/lease.js';
import { connectedV1Instance, eventually, newPhone, sleep } from '../../factories/sandbox.js';
import { MODES } from '../../kit/modes.js';
import { gatewaySuite } from '../../kit/suite.js';

/**
 * The fencing token on one node: once the lease has moved on, this node's hand-offs and writes for
 * the instance are refused; when it takes the instance back, it sends what waited, once.
 */
describe.each(MODES)('instance leases — $name', (mode) => {
  const suite = gatewaySuite(mode, { env: { NODE_LEASE_MS: '1500' } });

  it('owns what it connects, and refuses to hand off or write under a lease that moved on, then takes the instance back and sends once', async () => {
    const { gw, api } = suite;
    const [tenant] = suite.tenants;
    const { prisma } = gw.gateway.infra.db;
    const { ownership } = gw.gateway.infra.placement;
    const instance = await connectedV1Instance(api, tenant!.liveKey, 'fenced-line');
    const lease = await eventually(async () => ownership.leaseOf(instance.id), (l) => l !== undefined);
    expect(lease!.node).toBe(gw.gateway.infra.placement.node);

    const session = gw.gateway.services.ownerDuties.sessionOf(instance.id)!;
    // Another node takes the instance over (as after this one was frozen past its lease).
    await prisma.$executeRaw`UPDATE "InstanceLease" SET owner = 'another-node', token = token + 1 WHERE "instanceId" = ${instance.id}::uuid`;
    await expect(
      session.send([{ messageId: crypto.randomUUID(), to: '5511977776666', type: 'text', text: 'stale', mediaUrl: null, mediaType: null, caption: null, template: null }], instance.phone),
    ).rejects.toBeInstanceOf(LeaseLost);
    await expect(gw.gateway.infra.ports.instances.change(instance.id, { description: 'stale' }, [], { fence: lease })).rejects.toBeInstanceOf(LeaseLost);
    expect((await prisma.instance.findUniqueOrThrow({ where: { id: instance.id } })).description).toBeNull();

    // A send accepted meanwhile waits: the stale owner cannot hand it over.
    const to = newPhone().slice(1);
    const sent = await api.post('/v1/messages/send', { key: tenant!.liveKey, body: { to, text: 'after the takeover' } });
    expect(sent.status).toBe(200);
    await sleep(300);
    expect(await prisma.sandboxHandoff.count({ where: { to } })).toBe(0);

    // "another-node" never renews (it is not running): once its lease lapses, this node takes the instance back.
    const back = await eventually(async () => ownership.leaseOf(instance.id), (l) => l !== undefined && BigInt(l.token) > BigInt(lease!.token) + 1n, 10_000);
    expect(back!.node).toBe(lease!.node);
    await eventually(
      () => api.get(`/v1/messages/status/${sent.body.data.id}`, { key: tenant!.liveKey }),
      (r) => r.status === 200 && ['sent', 'delivered'].includes(r.body.data.status),
      5000,
    );
    const inbox = await api.get(`/sandbox/phones/${to}/messages`);
    expect(inbox.body.data.map((m: { id: string }) => m.id)).toEqual([sent.body.data.id]);
  });

  it('shows one live node owning its connected instances on /readyz', async () => {
    const { gw, api } = suite;
    const ready = await api.get('/readyz');
    const owned = gw.gateway.infra.placement.ownership.owned().length;
    expect(owned).toBeGreaterThan(0);
    expect(ready.body.data.nodes).toEqual([{ id: gw.gateway.infra.placement.node, instances: owned, lastSeen: expect.any(String) }]);
  });
});
