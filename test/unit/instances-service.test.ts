import type { ConversationStore } from '../../src/domain/conversations/conversations.ports.js';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { Conflict, Forbidden, NotFound } from '../../src/domain/errors.js';
import { createEngineEvents } from '../../src/domain/network/engine-events.js';
import { createInstancesService } from '../../src/domain/instances/instances.service.js';
import { createTransitions } from '../../src/domain/instances/transitions.js';
import { createDispatcher } from '../../src/domain/messages/dispatcher.js';
import { createUrlPolicy } from '../../src/domain/webhooks/url-policy.js';
import { PRO_LIMITS } from '../support/actors.js';
import {
  type EventLog,
  manualClock,
  memoryInstanceStore,
  memoryMessageStore,
  recordingEngine,
  registryOf,
} from '../support/memory-stores.js';

const owner: Actor = { kind: 'user', tenantId: 'tenant-a', plan: 'pro', limits: PRO_LIMITS, userId: 'u1' };
const stranger: Actor = { kind: 'user', tenantId: 'tenant-b', plan: 'pro', limits: PRO_LIMITS, userId: 'u2' };
/** Waits for a condition the service reaches through work it started without waiting for it. */
async function until(condition: () => boolean) {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 500) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const qrImages = { toDataUrl: async (text: string) => `data:image/png;base64,${Buffer.from(text).toString('base64')}` };

/**
 * The instance service with in-memory stores and a scripted network: whenever the owner is told
 * about an instance, `network` decides what the engine reports (by default, a QR code while it pairs).
 */
function setUp(network: 'issues codes' | 'silent' = 'issues codes') {
  const events: EventLog = [];
  const { store, rows } = memoryInstanceStore(events);
  const clock = manualClock();
  const handedOver: string[] = [];
  const engine = recordingEngine();
  const engines = registryOf(engine);
  const ownership = { leaseOf: () => undefined, owned: () => [], notify: () => {}, perform: async () => ({}) };
  const dispatcher = createDispatcher({ messages: memoryMessageStore(events, rows).store, engines, ownership, sessionOf: () => undefined, clock, onError: () => {} });
  const engineEvents = createEngineEvents({
    instances: store,
    transitions: createTransitions(store),
    messages: memoryMessageStore(events, rows).store,
    conversations: {} as ConversationStore,
    dispatcher,
    qrImages,
    clock,
    handOverWaiting: async () => {},
  });
  let codes = 0;
  const notified: string[] = [];
  const service = createInstancesService({
    instances: store,
    qrImages,
    engines,
    ownership: {
      notify(instanceId, work) {
        notified.push(`${instanceId}:${work}`);
        const row = rows.get(instanceId);
        if (network === 'silent' || !row) return;
        if (row.pairingSince && row.pairingCode && !row.pairingCodeExpiresAt) {
          void engineEvents.pairingCodeReady(instanceId, undefined, row.pairingCode, new Date(clock.now().getTime() + 60_000));
        } else if (row.pairingSince) {
          void engineEvents.qrCode(instanceId, undefined, { text: `code-${++codes}`, expiresAt: new Date(clock.now().getTime() + 20_000) });
        }
      },
    },
    clock,
    urls: createUrlPolicy({ resolve: async () => ['93.184.216.34'] }, false),
    handOverWaiting: async (tenantId) => void handedOver.push(tenantId),
    pairingWaitMs: 300,
  });
  return { service, engineEvents, rows, events, clock, handedOver, notified, engine };
}

describe('instances service (in-memory stores)', () => {
  it('starts pairing at create: v1 answers with the first code the network issues and stays initializing until GET …/qr', async () => {
    const { service, rows, events } = setUp();
    const created = await service.create(owner, 'v1', { name: 'Line' });
    expect(created.qr?.code).toBe('code-1');
    expect(rows.get(created.instance.id)).toMatchObject({ state: 'created', engine: 'CHAT-TEST' });
    expect(rows.get(created.instance.id)!.pairingSince).toBeInstanceOf(Date);
    expect(events.filter((e) => e.event === 'qr.update')).toHaveLength(1);
    // The live code is answered again (no new one), and the instance shows it from then on.
    expect((await service.qrCode(owner, created.instance.id)).code).toBe('code-1');
    expect(rows.get(created.instance.id)!.state).toBe('qr');
  });

  it('shows the session instance each code the network issues; when the codes run out it is disconnected with none, and regenerate-qr starts a new pairing', async () => {
    const { service, engineEvents, rows, events, clock } = setUp('silent');
    const { instance } = await service.create(owner, 'session', { name: 'Support' });
    expect(instance.state).toBe('created');
    await engineEvents.qrCode(instance.id, undefined, { text: 'first', expiresAt: new Date(clock.now().getTime() + 20_000) });
    expect(rows.get(instance.id)!.state).toBe('qr');
    expect((await service.get(owner, instance.id)).qr?.code).toBe('first');
    // A read of the instance taken before the code was written does not show it beside "created".
    expect(await service.currentQr(instance)).toBeNull();
    await engineEvents.qrCode(instance.id, undefined, { text: 'second', expiresAt: new Date(clock.now().getTime() + 20_000) });
    expect((await service.get(owner, instance.id)).qr?.code).toBe('second');
    await engineEvents.pairingEnded(instance.id, undefined);
    expect(rows.get(instance.id)).toMatchObject({ state: 'disconnected', pairingSince: null });
    expect((await service.get(owner, instance.id)).qr).toBeNull();
    expect(events.filter((e) => e.event === 'connection.update').map((e) => [e.data.status, e.data.reason])).toEqual([
      ['qr', null],
      ['disconnected', 'pairing_expired'],
    ]);
    // A code the network issues after the pairing ended is refused: the engine stops.
    await expect(engineEvents.qrCode(instance.id, undefined, { text: 'late', expiresAt: new Date(clock.now().getTime() + 20_000) })).rejects.toBeInstanceOf(Conflict);

    const regenerating = service.regenerateQr(owner, instance.id);
    await until(() => rows.get(instance.id)!.pairingSince !== null);
    await engineEvents.qrCode(instance.id, undefined, { text: 'anew', expiresAt: new Date(clock.now().getTime() + 20_000) });
    const regenerated = await regenerating;
    expect(regenerated.qr.code).toBe('anew');
    expect(regenerated.instance.state).toBe('qr');
  });

  it('retires the live codes of a pairing when a new one starts', async () => {
    const { service, rows } = setUp();
    const { instance } = await service.create(owner, 'session', { name: 'Fresh' });
    await until(() => rows.get(instance.id)!.state === 'qr');
    const old = (await service.get(owner, instance.id)).qr!.code;
    const regenerated = await service.regenerateQr(owner, instance.id);
    expect(regenerated.qr.code).not.toBe(old);
    expect((await service.get(owner, instance.id)).qr?.code).toBe(regenerated.qr.code);
  });

  it('answers a pairing code once the owner registered it with the network, and refuses one for a linked instance', async () => {
    const { service, rows } = setUp();
    const { instance } = await service.create(owner, 'session', { name: 'By code' });
    const answer = await service.requestPairingCode(owner, instance.id, { phone: '+5511999990001' });
    expect(answer.code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    expect(rows.get(instance.id)).toMatchObject({ pairingCode: answer.code, pairingPhone: '+5511999990001', pairingCodeExpiresAt: answer.expiresAt });
    await expect(service.requestPairingCode(owner, instance.id, { phone: '55 (11) 99999-0001' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(service.requestPairingCode(owner, instance.id, {})).rejects.toMatchObject({ code: 'invalid_request' });
    rows.get(instance.id)!.state = 'connected';
    await expect(service.requestPairingCode(owner, instance.id, { phone: '+5511999990001' })).rejects.toBeInstanceOf(Conflict);
    await expect(service.requestPairingCode(stranger, instance.id, { phone: '+5511999990001' })).rejects.toBeInstanceOf(Forbidden);
  });

  it('answers 503 when the network issues no code in time (v1 create still succeeds, without a code)', async () => {
    const { service } = setUp('silent');
    const created = await service.create(owner, 'v1', { name: 'Quiet' });
    expect(created.qr).toBeNull();
    await expect(service.regenerateQr(owner, created.instance.id)).rejects.toMatchObject({ code: 'service_unavailable' });
  });

  it('refuses an integration the gateway does not offer, naming those it does', async () => {
    const { service } = setUp();
    await expect(service.create(owner, 'session', { name: 'Elsewhere', integration: 'CHAT-CLOUD' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'integration: must be one of CHAT-TEST (the engines this gateway offers)',
    });
    const chosen = await service.create(owner, 'session', { name: 'Here', integration: 'CHAT-TEST' });
    expect(chosen.instance.engine).toBe('CHAT-TEST');
  });

  it('moves through the connection policy: linked, dropped with its reason, back, logged out by the phone', async () => {
    const { service, engineEvents, rows, events, clock } = setUp('silent');
    const { instance } = await service.create(owner, 'session', { name: 'Policy' });
    await engineEvents.qrCode(instance.id, undefined, { text: 'scan me', expiresAt: new Date(clock.now().getTime() + 20_000) });
    await engineEvents.paired(instance.id, undefined, '+5511999990009');
    await engineEvents.closed(instance.id, undefined, 'restart_required');
    expect(rows.get(instance.id)).toMatchObject({ state: 'connecting', phone: '+5511999990009', pairingSince: null });
    await engineEvents.connected(instance.id, undefined);
    await engineEvents.closed(instance.id, undefined, 'connection_lost');
    expect(rows.get(instance.id)).toMatchObject({ state: 'disconnected', lastDisconnectReason: 'connection_lost' });
    await engineEvents.closed(instance.id, undefined, 'timed_out');
    expect(rows.get(instance.id)).toMatchObject({ state: 'disconnected', lastDisconnectReason: 'timed_out' });
    await engineEvents.connected(instance.id, undefined);
    await engineEvents.closed(instance.id, undefined, 'logged_out');
    expect(rows.get(instance.id)).toMatchObject({ state: 'disconnected', phone: null, lastDisconnectReason: 'logged_out' });
    // Session words: linking (connecting) shows as "qr" too.
    expect(events.filter((e) => e.event === 'connection.update').map((e) => `${e.data.status}/${e.data.reason}`)).toEqual([
      'qr/null',
      'qr/null',
      'connected/null',
      'disconnected/connection_lost',
      'qr/null',
      'connected/null',
      'disconnected/logged_out',
    ]);
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
    const starter: Actor = { ...owner, plan: 'starter', limits: { ...owner.limits, instances: 1 } };
    await service.create(starter, 'v1', { name: 'Only one' });
    await expect(service.create(starter, 'v1', { name: 'ONLY ONE' })).rejects.toMatchObject({ code: 'instance_name_taken' });
    await expect(service.create(starter, 'v1', { name: 'Second' })).rejects.toMatchObject({ code: 'instance_limit_reached' });
  });
});
