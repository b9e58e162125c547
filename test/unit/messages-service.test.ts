import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import type { InstanceRecord } from '../../src/domain/instances/instances.ports.js';
import { createMessagesService } from '../../src/domain/messages/messages.service.js';
import { createUrlPolicy } from '../../src/domain/webhooks/url-policy.js';
import { Conflict } from '../../src/domain/errors.js';
import { manualClock, memoryInstanceStore, memoryMessageStore, memoryQuota, memoryRouter } from '../support/memory-stores.js';
import { PRO_LIMITS } from '../support/actors.js';

const live: Actor = { kind: 'apiKey', tenantId: 'tenant-a', plan: 'pro', limits: { ...PRO_LIMITS, dailyMessages: 5 }, apiKeyId: 'key-1', testMode: false };
const quotas = { testKey: 2 };

async function setUp(connected = 2) {
  const clock = manualClock();
  const instances = memoryInstanceStore();
  const messages = memoryMessageStore([], instances.rows);
  const quota = memoryQuota();
  const accepted: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < connected; i++) {
    const created = (await instances.store.createWithinLimit(
      { tenantId: live.tenantId, name: `line ${i}`, description: null, variant: 'v1', engine: 'test', webhookUrl: null, webhookEvents: [], webhookSecret: 's', pairingSince: null },
      10,
    )) as InstanceRecord;
    Object.assign(instances.rows.get(created.id)!, { state: 'connected', createdAt: new Date(clock.now().getTime() + i) });
    ids.push(created.id);
  }
  const service = createMessagesService({
    messages: messages.store,
    router: memoryRouter(instances.rows, clock),
    instances: {
      ownedStanding: async (_actor, id) => {
        const found = instances.rows.get(id);
        if (!found) throw new Error('unknown instance');
        return found;
      },
    },
    clock,
    quota,
    quotas,
    media: { probe: async () => ({ contentType: 'image/png', bytes: 10, sniffed: 'image/png' }), sniff: async () => null, fetch: async () => ({ contentType: 'image/png', bytes: Buffer.alloc(10) }) },
    urls: createUrlPolicy({ resolve: async () => ['93.184.216.34'] }, false),
    capabilitiesOf: () => ['text', 'media'],
    onAccepted: (instanceId) => accepted.push(instanceId),
  });
  return { service, messages, quota, accepted, ids, clock, instances };
}

describe('messages service (in-memory stores)', () => {
  it('routes to the least recently used active, connected instance', async () => {
    const { service, messages, ids, clock } = await setUp(2);
    const routed = [];
    for (let i = 0; i < 4; i++) {
      const sent = await service.send(live, { to: '5511987654321', text: `m${i}` });
      routed.push(messages.rows.get(sent.id)!.instanceId);
      clock.advance(1000);
    }
    expect(routed).toEqual([ids[0], ids[1], ids[0], ids[1]]);
  });

  it('skips inactive instances, holds the message when none is connected, refuses when none is active', async () => {
    const { service, messages, instances, ids } = await setUp(2);
    instances.rows.get(ids[0]!)!.active = false;
    const first = await service.send(live, { to: '5511987654321', text: 'only the active one' });
    expect(messages.rows.get(first.id)!.instanceId).toBe(ids[1]);
    instances.rows.get(ids[1]!)!.state = 'disconnected';
    const held = await service.send(live, { to: '5511987654321', text: 'held' });
    expect(messages.rows.get(held.id)).toMatchObject({ instanceId: null, status: 'queued' });
    instances.rows.get(ids[1]!)!.active = false;
    await expect(service.send(live, { to: '5511987654321', text: 'nobody' })).rejects.toMatchObject({ code: 'instance_unavailable' });
  });

  it('replays the first answer for a repeated Idempotency-Key and refuses it with another body', async () => {
    const { service, messages, quota } = await setUp(1);
    const first = await service.send(live, { to: '5511987654321', text: 'once' }, 'order-1');
    const again = await service.send(live, { text: 'once', to: '5511987654321' }, 'order-1');
    expect(again).toEqual(first);
    expect(messages.rows.size).toBe(1);
    expect([...quota.taken.values()]).toEqual([1]);
    await expect(service.send(live, { to: '5511987654321', text: 'changed' }, 'order-1')).rejects.toEqual(
      new Conflict('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.'),
    );
  });

  it('gives the daily quota back when the message could not be stored', async () => {
    const { service, messages, quota } = await setUp(1);
    messages.failNextWrite(new Error('database write failed'));
    await expect(service.send(live, { to: '5511987654321', text: 'lost' })).rejects.toThrow('database write failed');
    expect([...quota.taken.values()]).toEqual([0]);
    await service.send(live, { to: '5511987654321', text: 'stored' });
    expect([...quota.taken.values()]).toEqual([1]);
  });

  it('refuses past the daily quota with the quota in the error, and counts a test key apart', async () => {
    const { service } = await setUp(1);
    for (let i = 0; i < 5; i++) await service.send(live, { to: '5511987654321', text: `m${i}` });
    await expect(service.send(live, { to: '5511987654321', text: 'one too many' })).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      exceeded: { limit: 5, remaining: 0 },
    });
    const testKey: Actor = { ...live, apiKeyId: 'key-2', testMode: true };
    const sent = await service.send(testKey, { to: '5511987654321', text: 'test' });
    expect(sent.mode).toBe('test');
  });
});
