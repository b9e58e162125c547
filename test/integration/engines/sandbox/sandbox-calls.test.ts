import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone, phoneInbox } from '../../../factories/sandbox.js';
import { putSettings } from '../../../factories/settings.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

const digitsOf = (phone: string) => phone.slice(1);

describe.each(MODES)('Sandbox: calls, alwaysOnline, autoRead and ignored chats, as the phones see them — $name', (mode) => {
  const world = sandboxWorld(mode);
  let key: string;

  beforeAll(() => {
    key = world.tenant.liveKey;
  });

  /** A connected v1 instance whose webhook takes calls and messages. */
  async function hooked(name: string) {
    const instance = await connectedInstance(world, `${name} ${Date.now()}`);
    const set = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key, body: { url: `${world.receiver.url}/${instance.id}`, events: ['call', 'messages.upsert'] } });
    expect(set.status, set.text).toBe(200);
    return instance;
  }
  const delivered = (instanceId: string, event: string) =>
    world.receiver.of(event).map((call) => JSON.parse(call.body)).filter((body) => body.instanceId === instanceId).map((body) => body.data);
  const callSteps = (instanceId: string, callId: string) => delivered(instanceId, 'call').filter((data) => data.id === callId).map((data) => data.status);
  const sentTo = async (instanceId: string, phone: string) =>
    (await world.api.get(`/v1/messages/list?instanceId=${instanceId}&direction=out&chatId=${digitsOf(phone)}`, { key })).body.data as Array<{ text: string }>;
  /**
   * Settings reach the running session through its owner shortly after the answer: changed together
   * with alwaysOnline (flipped each time), they are in place once the network shows the new presence.
   */
  const shownOnline = new Map<string, boolean>();
  async function settingsInPlace(instance: { id: string; phone: string }, body: Record<string, unknown>) {
    const online = !shownOnline.get(instance.id);
    shownOnline.set(instance.id, online);
    await putSettings(world, instance.id, { ...body, alwaysOnline: online });
    const state = online ? 'available' : 'unavailable';
    await eventually(() => world.api.get(`/sandbox/phones/${digitsOf(instance.phone)}/presence`), (r) => r.body.data.at(-1)?.state === state);
  }
  const call = async (from: string, to: string, video = false) => {
    const placed = await world.api.post('/sandbox/calls', { body: { from, to, video } });
    expect(placed.status, placed.text).toBe(201);
    return placed.body.data as { id: string; status: string; video: boolean };
  };

  it('a call rejected by the instance sends its message to the caller, who receives it', async () => {
    const instance = await hooked('calls reject message');
    await settingsInPlace(instance, { calls: { reject: true, message: 'We only answer messages here.' } });
    const caller = newPhone();
    const placed = await call(caller, instance.phone, true);
    expect(placed).toMatchObject({ status: 'rejected', video: true });
    await eventually(async () => callSteps(instance.id, placed.id), (steps) => steps.length === 2);
    expect(delivered(instance.id, 'call').filter((data) => data.id === placed.id)).toEqual([
      { id: placed.id, from: digitsOf(caller), video: true, status: 'offer', at: expect.any(String) },
      { id: placed.id, from: digitsOf(caller), video: true, status: 'reject', at: expect.any(String) },
    ]);
    const inbox = (await eventually(() => phoneInbox(world.api, caller), (r) => r.body.data.length === 1)).body.data;
    expect(inbox).toEqual([expect.objectContaining({ from: digitsOf(instance.phone), type: 'text', text: 'We only answer messages here.' })]);
    expect((await world.api.get(`/sandbox/phones/${digitsOf(caller)}/calls`)).body.data).toEqual([
      { id: placed.id, from: digitsOf(caller), to: digitsOf(instance.phone), video: true, status: 'rejected', at: expect.any(String) },
    ]);
  });

  it('a call rejected without a message sends nothing; with rejecting off, a message set is never sent', async () => {
    const instance = await hooked('calls reject silent');
    await settingsInPlace(instance, { calls: { reject: true } });
    const caller = newPhone();
    const rejected = await call(caller, instance.phone);
    expect(rejected.status).toBe('rejected');
    await eventually(async () => callSteps(instance.id, rejected.id), (steps) => steps.join() === 'offer,reject');
    // The rejection was wholly handled before the call was answered: a message would be stored by now.
    expect(await sentTo(instance.id, caller)).toEqual([]);

    await settingsInPlace(instance, { calls: { reject: false, message: 'Never sent while rejecting is off.' } });
    const ringing = await call(caller, instance.phone);
    expect(ringing.status).toBe('ringing');
    const ended = await world.api.post(`/sandbox/calls/${ringing.id}/end`, { body: { outcome: 'hangup' } });
    expect(ended.body.data.status).toBe('missed');
    await eventually(async () => callSteps(instance.id, ringing.id), (steps) => steps.join() === 'offer,missed');
    const taken = await call(caller, instance.phone);
    await world.api.post(`/sandbox/calls/${taken.id}/end`, { body: { outcome: 'accept' } });
    const unanswered = await call(caller, instance.phone);
    await world.api.post(`/sandbox/calls/${unanswered.id}/end`, { body: { outcome: 'timeout' } });
    // Declined on the phone: a rejection, but not the instance's, so its message is not sent either.
    const declined = await call(caller, instance.phone);
    await world.api.post(`/sandbox/calls/${declined.id}/end`, { body: { outcome: 'reject' } });
    const steps = [taken, unanswered, declined].map((placed) => () => callSteps(instance.id, placed.id).join());
    await eventually(async () => steps.map((of) => of()), (all) => all.join(' ') === 'offer,accept offer,timeout offer,reject');
    expect(await sentTo(instance.id, caller)).toEqual([]);
    expect((await phoneInbox(world.api, caller)).body.data).toEqual([]);
    const again = await world.api.post(`/sandbox/calls/${taken.id}/end`, { body: { outcome: 'hangup' } });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/callId/);
  });

  it('a connection that dropped and came back still rejects calls by its settings', async () => {
    const instance = await hooked('calls after a drop');
    await settingsInPlace(instance, { calls: { reject: true } });
    expect((await world.api.post(`/sandbox/instances/${instance.id}/drop`)).status).toBe(200);
    await eventually(() => world.api.get(`/v1/chat/instances/${instance.id}`, { key }), (r) => r.body.data.status === 'connected');
    await eventually(async () => (await call(newPhone(), instance.phone)).status, (status) => status === 'rejected');
  });

  it('a call to a number no connected instance has is refused; a bad call body is a 400 naming the field', async () => {
    const refused = await world.api.post('/sandbox/calls', { body: { from: newPhone(), to: newPhone() } });
    expect(refused.status).toBe(409);
    const bad = await world.api.post('/sandbox/calls', { body: { from: newPhone(), to: 'nobody', video: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/to/);
  });

  it('alwaysOnline shows the account online to the network, and offline again when turned off', async () => {
    const instance = await connectedInstance(world, `online ${Date.now()}`);
    const presence = () => world.api.get(`/sandbox/phones/${digitsOf(instance.phone)}/presence`);
    await putSettings(world, instance.id, { alwaysOnline: true });
    const online = await eventually(presence, (r) => r.body.data.length === 1);
    expect(online.body.data).toEqual([{ from: digitsOf(instance.phone), state: 'available', at: expect.any(String) }]);
    await putSettings(world, instance.id, { alwaysOnline: false });
    const offline = await eventually(presence, (r) => r.body.data.length === 2);
    expect(offline.body.data[1]).toMatchObject({ state: 'unavailable' });
  });

  it('autoRead marks a received message read at once: its sender sees the read mark', async () => {
    const instance = await connectedInstance(world, `autoread ${Date.now()}`);
    const sender = newPhone();
    const before = await world.api.post('/sandbox/messages', { body: { from: sender, to: instance.phone, text: 'before' } });
    expect(before.status, before.text).toBe(200);
    await settingsInPlace(instance, { autoRead: true });
    const after = await world.api.post('/sandbox/messages', { body: { from: sender, to: instance.phone, text: 'after' } });
    const reads = await eventually(() => world.api.get(`/sandbox/phones/${digitsOf(sender)}/reads`), (r) => r.body.data.length >= 1);
    expect(reads.body.data).toEqual([{ messageId: after.body.data.messageId, from: digitsOf(instance.phone), at: expect.any(String) }]);
  });

  it('ignored groups: a group message is taken by the network but nothing is stored or delivered; a direct one still is', async () => {
    const instance = await hooked('ignore groups');
    const member = newPhone();
    const group = await world.api.post(`/v1/chat/instances/${instance.id}/groups`, { key, body: { subject: 'Noise', participants: [digitsOf(member)] } });
    expect(group.status, group.text).toBe(201);
    await putSettings(world, instance.id, { ignore: { groups: true } });
    const inGroup = await world.api.post('/sandbox/messages', { body: { from: member, to: instance.phone, group: group.body.data.id, text: 'in the group' } });
    expect(inGroup.status, inGroup.text).toBe(200);
    expect(inGroup.body.data).toEqual({ messageId: null });
    const direct = await world.api.post('/sandbox/messages', { body: { from: member, to: instance.phone, text: 'direct' } });
    expect(direct.body.data.messageId).toEqual(expect.any(String));
    await eventually(async () => delivered(instance.id, 'messages.upsert'), (list) => list.length === 1);
    expect(delivered(instance.id, 'messages.upsert').map((data) => data.text ?? data.message?.conversation)).toEqual(['direct']);
    const stored = (await world.api.get(`/v1/messages/list?instanceId=${instance.id}&direction=in`, { key })).body.data as Array<{ id: string }>;
    expect(stored.map((message) => message.id)).toEqual([direct.body.data.messageId]);

    await putSettings(world, instance.id, { ignore: { groups: false } });
    const kept = await world.api.post('/sandbox/messages', { body: { from: member, to: instance.phone, group: group.body.data.id, text: 'heard again' } });
    expect(kept.body.data.messageId).toEqual(expect.any(String));
  });
});
