import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { Conflict, Forbidden, NotFound } from '../../src/domain/errors.js';
import { createInstancesService } from '../../src/domain/instances/instances.service.js';
import { createUrlPolicy } from '../../src/domain/webhooks/url-policy.js';
import { type EventLog, manualClock, memoryInstanceStore, recordingEngine } from '../support/memory-stores.js';

const QR = { sessionTtlSeconds: 20, sessionAttempts: 3, v1TtlSeconds: 60 };
const owner: Actor = { kind: 'user', tenantId: 'tenant-a', plan: 'pro', userId: 'u1' };
const stranger: Actor = { kind: 'user', tenantId: 'tenant-b', plan: 'pro', userId: 'u2' };

function setUp() {
  const events: EventLog = [];
  const { store, rows } = memoryInstanceStore(events);
  const clock = manualClock();
  const pending: Array<Promise<unknown>> = [];
  const handedOver: string[] = [];
  const service = createInstancesService({
    instances: store,
    qrImages: { toDataUrl: async (text) => `data:image/png;base64,${Buffer.from(text).toString('base64')}` },
    engine: recordingEngine(),
    clock,
    qr: QR,
    urls: createUrlPolicy({ resolve: async () => ['93.184.216.34'] }, false),
    handOverWaiting: async (tenantId) => void handedOver.push(tenantId),
    background: (work) => void pending.push(work()),
  });
  return { service, rows, events, clock, handedOver, settle: () => Promise.all(pending.splice(0)) };
}

describe('instances service (in-memory stores)', () => {
  it('gives a session instance its first QR code after create, rotates it, gives up after the last attempt, and regenerates', async () => {
    const { service, rows, events, clock, settle } = setUp();
    const { instance } = await service.create(owner, 'session', { name: 'Support' });
    expect(instance.state).toBe('created');
    await settle();
    expect(rows.get(instance.id)).toMatchObject({ state: 'qr', qrAttempts: 1 });

    for (let attempt = 2; attempt <= QR.sessionAttempts; attempt++) {
      clock.advance(QR.sessionTtlSeconds * 1000 + 1);
      await service.rotateExpiredQrCodes([{ instanceId: instance.id, node: 'node-a', token: '1' }]);
      expect(rows.get(instance.id)).toMatchObject({ state: 'qr', qrAttempts: attempt });
    }
    clock.advance(QR.sessionTtlSeconds * 1000 + 1);
    await service.rotateExpiredQrCodes([{ instanceId: instance.id, node: 'node-a', token: '1' }]);
    expect(rows.get(instance.id)!.state).toBe('disconnected');
    expect((await service.get(owner, instance.id)).qr).toBeNull();
    expect(events.filter((e) => e.event === 'qr.update')).toHaveLength(QR.sessionAttempts);
    expect(events.filter((e) => e.event === 'connection.update').map((e) => e.data.status)).toEqual(['qr', 'disconnected']);

    const regenerated = await service.regenerateQr(owner, instance.id);
    expect(regenerated.instance).toMatchObject({ state: 'qr', qrAttempts: 1 });
    expect((await service.get(owner, instance.id)).qr?.attemptId).toBe(regenerated.qr.attemptId);
  });

  it('rotates only the codes of instances this node holds a lease on', async () => {
    const { service, rows, clock, settle } = setUp();
    const { instance } = await service.create(owner, 'session', { name: 'Elsewhere' });
    await settle();
    clock.advance(QR.sessionTtlSeconds * 1000 + 1);
    await service.rotateExpiredQrCodes([]);
    await service.rotateExpiredQrCodes([{ instanceId: 'another-instance', node: 'node-a', token: '1' }]);
    expect(rows.get(instance.id)!.qrAttempts).toBe(1);
  });

  it('does not rotate a code before it expires', async () => {
    const { service, rows, clock, settle } = setUp();
    const { instance } = await service.create(owner, 'session', { name: 'Patient' });
    await settle();
    clock.advance(QR.sessionTtlSeconds * 1000 - 1);
    await service.rotateExpiredQrCodes([{ instanceId: instance.id, node: 'node-a', token: '1' }]);
    expect(rows.get(instance.id)!.qrAttempts).toBe(1);
  });

  it('refuses a QR code for a connected instance in its own words, and another tenant\'s or an unknown instance', async () => {
    const { service, rows } = setUp();
    const { instance } = await service.create(owner, 'v1', { name: 'Line' });
    rows.get(instance.id)!.state = 'connected';
    await expect(service.qrCode(owner, instance.id)).rejects.toThrow(new Conflict('instance_unavailable', 'The instance is already connected.'));
    await expect(service.get(stranger, instance.id)).rejects.toBeInstanceOf(Forbidden);
    await expect(service.get(owner, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFound);
  });

  it('hands waiting routed messages to an instance activated while connected, not to one toggled off', async () => {
    const { service, rows, handedOver } = setUp();
    const { instance } = await service.create(owner, 'v1', { name: 'Toggled' });
    rows.get(instance.id)!.state = 'connected';
    expect((await service.toggle(owner, instance.id)).active).toBe(false);
    expect(handedOver).toEqual([]);
    expect((await service.toggle(owner, instance.id)).active).toBe(true);
    expect(handedOver).toEqual([owner.tenantId]);
  });

  it('enforces the plan limit, and a duplicate name (any case) wins over it', async () => {
    const { service } = setUp();
    const starter: Actor = { ...owner, plan: 'starter' };
    await service.create(starter, 'v1', { name: 'Only one' });
    await expect(service.create(starter, 'v1', { name: 'ONLY ONE' })).rejects.toMatchObject({ code: 'instance_name_taken' });
    await expect(service.create(starter, 'v1', { name: 'Second' })).rejects.toMatchObject({ code: 'instance_limit_reached' });
  });
});
