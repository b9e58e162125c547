import { describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { createTenant } from '../../factories/tenants.js';
import type { TestGateway } from '../../kit/gateway.js';
import { client, failure } from '../../helpers/http.js';
import { withTwoNodes } from '../../kit/worlds/cluster.js';
import type { ChildGateway } from '../../kit/process.js';

/**
 * Each node keeps what a named send checks of an instance (owner, engine, state) in memory: a change
 * made through one node must be refused on the other exactly as on the first, at once (the store's
 * own check at write catches a node the news has not reached yet).
 */
describe('named sends across two gateway processes sharing PostgreSQL and Redis', () => {
  let a: TestGateway;
  let b: ChildGateway;

  withTwoNodes((nodes) => ({ a, b } = nodes));

  it('an instance deactivated, reactivated or deleted through one node is refused or taken by the other at once; another tenant is 403 on both', async () => {
    const apiA = client(a.url);
    const apiB = client(b.url);
    const tenant = await createTenant(a.gateway, apiA);
    const other = await createTenant(a.gateway, apiA);
    const line = await connectedV1Instance(apiA, tenant.liveKey, 'named across nodes');
    await eventually(() => apiA.get(`/v1/chat/instances/${line.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected');
    const to = newPhone().slice(1);
    let n = 0;
    // Both named paths: the instance's own, and /v1/messages/send with instanceId.
    const sends = (api: typeof apiA, key = tenant.liveKey) => [
      api.post(`/v1/chat/instances/${line.id}/messages`, { key, body: { to, text: `named ${n++}` } }),
      api.post('/v1/messages/send', { key, body: { to, text: `named ${n++}`, instanceId: line.id } }),
    ];
    const answers = async (...apis: Array<typeof apiA>) => Promise.all(apis.flatMap((api) => sends(api)));
    const accepted: string[] = [];
    const take = (list: Awaited<ReturnType<typeof answers>>) => {
      for (const answer of list) {
        expect(answer.status, answer.text).toBe(200);
        accepted.push(answer.body.data.id);
      }
    };

    // Each node has read the instance's standing now.
    take(await answers(apiA, apiB));
    for (const answer of await Promise.all([...sends(apiA, other.liveKey), ...sends(apiB, other.liveKey)])) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(failure('forbidden'));
    }

    expect((await apiA.post(`/v1/chat/instances/${line.id}/toggle`, { key: tenant.liveKey })).body.data.active).toBe(false);
    for (const answer of await answers(apiB, apiA)) {
      expect(answer.status, answer.text).toBe(409);
      expect(answer.body).toEqual(failure('instance_inactive'));
    }
    expect((await apiB.post(`/v1/chat/instances/${line.id}/toggle`, { key: tenant.liveKey })).body.data.active).toBe(true);
    take(await answers(apiA, apiB));
    const inbox = await eventually(() => phoneInbox(apiA, to), (r) => r.body.data.length === accepted.length, 20_000);
    expect(new Set(inbox.body.data.map((m: { id: string }) => m.id))).toEqual(new Set(accepted));

    expect((await apiB.delete(`/v1/chat/instances/${line.id}`, { key: tenant.liveKey })).status).toBe(200);
    for (const answer of await answers(apiA, apiB)) {
      expect(answer.status, answer.text).toBe(404);
      expect(answer.body).toEqual(failure('not_found'));
    }
    // The refused sends stored nothing (the delivered ones went with the instance): none fell back to routing.
    expect(await a.gateway.infra.db.prisma.message.count({ where: { tenantId: tenant.tenantId } })).toBe(0);
  });
});
