import { describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { putSettings } from '../../../factories/settings.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';

const digitsOf = (phone: string) => phone.replace(/^\+/, '');

describe.each(MODES)('CHAT-BAILEYS: calls, alwaysOnline, autoRead and ignored groups, as the local network sees them — $name', (mode) => {
  const world = baileysWorld(mode);

  /** A connected v1 instance whose webhook takes calls and received messages. */
  async function hooked(name: string) {
    const instance = await pairedV1(world.api, world.tenant.liveKey, world.network, `${name} ${Date.now()}`);
    const set = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, {
      key: world.tenant.liveKey,
      body: { url: `${world.receiver.url}/${instance.id}`, events: ['call', 'messages.upsert'] },
    });
    expect(set.status, set.text).toBe(200);
    return instance;
  }
  const delivered = (instanceId: string, event: string) =>
    world.receiver.of(event).map((call) => JSON.parse(call.body)).filter((body) => body.instanceId === instanceId).map((body) => body.data);
  const callSteps = (instanceId: string, callId: string) => delivered(instanceId, 'call').filter((data) => data.id === callId);
  const stored = async (instanceId: string, direction: 'in' | 'out') =>
    (await world.api.get(`/v1/messages/list?instanceId=${instanceId}&direction=${direction}`, { key: world.tenant.liveKey })).body.data as Array<{ id: string; to: string; text: string }>;
  const callOf = (caller: string, id: string) => world.network.calls(caller).find((call) => call.id === id);
  /**
   * Settings reach the running session through its owner shortly after the answer: changed together
   * with alwaysOnline (flipped each time), they are in place once the network shows the new presence.
   */
  const shownOnline = new Map<string, boolean>();
  async function settingsInPlace(instance: { id: string; phone: string }, body: Record<string, unknown>) {
    const online = !shownOnline.get(instance.id);
    shownOnline.set(instance.id, online);
    await putSettings(world, instance.id, { ...body, alwaysOnline: online });
    const type = online ? 'available' : 'unavailable';
    await world.network.waitFor(() => world.network.presenceOf(instance.phone).type === type, 15_000, `the account ${type}`);
  }

  it('a call rejected by the instance: the network records the device\'s reject and the caller\'s phone receives the message', async () => {
    const instance = await hooked('calls reject message');
    await settingsInPlace(instance, { calls: { reject: true, message: 'Calls are not answered here; write to us.' } });
    const caller = newNetworkPhone();
    const callId = world.network.call(caller, instance.phone, { video: true });
    await world.network.waitFor(() => callOf(caller, callId)?.status === 'rejected', 15_000, 'the device rejecting the call');
    expect(callOf(caller, callId)).toMatchObject({ status: 'rejected', video: true, to: digitsOf(instance.phone) });
    await eventually(async () => callSteps(instance.id, callId), (steps) => steps.length === 2, 15_000);
    expect(callSteps(instance.id, callId)).toEqual([
      { id: callId, from: digitsOf(caller), video: true, status: 'offer', at: expect.any(String) },
      { id: callId, from: digitsOf(caller), video: true, status: 'reject', at: expect.any(String) },
    ]);
    const [received] = await world.network.waitForInbox(caller, 1, 15_000);
    expect(received).toMatchObject({ type: 'text', text: 'Calls are not answered here; write to us.' });
    expect(received!.from).toBe(digitsOf(instance.phone));
  });

  it('rejected without a message nothing is sent; with rejecting off a call rings, ends as the phone says, and no message is sent', async () => {
    const instance = await hooked('calls silent');
    await settingsInPlace(instance, { calls: { reject: true } });
    const caller = newNetworkPhone();
    const rejected = world.network.call(caller, instance.phone);
    await eventually(async () => callSteps(instance.id, rejected).map((step) => step.status), (steps) => steps.join() === 'offer,reject', 15_000);
    expect(callOf(caller, rejected)?.status).toBe('rejected');

    await settingsInPlace(instance, { calls: { reject: false, message: 'Never sent while rejecting is off.' } });
    const steps = (id: string) => callSteps(instance.id, id).map((step) => step.status).join();
    const missed = world.network.call(caller, instance.phone);
    await eventually(async () => steps(missed), (list) => list === 'offer', 15_000);
    world.network.endCall(missed, 'hangup');
    const taken = world.network.call(caller, instance.phone);
    await eventually(async () => steps(taken), (list) => list === 'offer', 15_000);
    world.network.endCall(taken, 'accept');
    const unanswered = world.network.call(caller, instance.phone);
    await eventually(async () => steps(unanswered), (list) => list === 'offer', 15_000);
    world.network.endCall(unanswered, 'timeout');
    // Declined on the phone: a rejection, but not the instance's, so its message is not sent either.
    const declined = world.network.call(caller, instance.phone);
    await eventually(async () => steps(declined), (list) => list === 'offer', 15_000);
    world.network.endCall(declined, 'reject');
    const all = () => [steps(missed), steps(taken), steps(unanswered), steps(declined)].join(' ');
    await eventually(async () => all(), (list) => list === 'offer,missed offer,accept offer,timeout offer,reject', 15_000);
    expect(world.network.calls(caller).map((call) => call.status)).toEqual(['rejected', 'missed', 'accepted', 'timeout', 'rejected']);
    // Each call's steps were handled in order after the first one's rejection: a message for any would be stored by now.
    expect(await stored(instance.id, 'out')).toEqual([]);
    expect(world.network.inbox(caller)).toEqual([]);
  });

  it('alwaysOnline: the network holds the account online, and offline again when it is turned off', async () => {
    const instance = await pairedV1(world.api, world.tenant.liveKey, world.network, `online ${Date.now()}`);
    await putSettings(world, instance.id, { alwaysOnline: true });
    await world.network.waitFor(() => world.network.presenceOf(instance.phone).type === 'available', 15_000, 'the account online');
    await putSettings(world, instance.id, { alwaysOnline: false });
    await world.network.waitFor(() => world.network.presenceOf(instance.phone).type === 'unavailable', 15_000, 'the account offline');
  });

  it('autoRead: the sender\'s phone gets a read receipt for what it sent, without anyone asking', async () => {
    const instance = await pairedV1(world.api, world.tenant.liveKey, world.network, `autoread ${Date.now()}`);
    await settingsInPlace(instance, { autoRead: true });
    const sender = newNetworkPhone();
    const id = await world.network.send(sender, instance.phone, { text: 'read me' });
    await world.network.waitFor(() => world.network.receipts(sender).some((receipt) => receipt.messageId === id && receipt.type === 'read'), 15_000, 'a read receipt');
  });

  it('ignored groups: a group message reaches the device but nothing is stored or delivered; a direct one still is', async () => {
    const instance = await hooked('ignore groups');
    await settingsInPlace(instance, { ignore: { groups: true } });
    const member = newNetworkPhone();
    const group = world.network.groupCreate(member, 'Noise', [instance.phone]);
    const inGroup = await world.network.send(member, group, { text: 'in the group' });
    // The device took it (its delivery receipt) before the direct message is sent: reports keep their order.
    await world.network.waitFor(() => world.network.receipts(member).some((receipt) => receipt.messageId === inGroup), 15_000, 'the group message delivered');
    await world.network.send(member, instance.phone, { text: 'direct' });
    await eventually(async () => delivered(instance.id, 'messages.upsert'), (list) => list.length === 1, 15_000);
    expect(delivered(instance.id, 'messages.upsert').map((data) => data.text)).toEqual(['direct']);
    expect((await stored(instance.id, 'in')).map((message) => message.text)).toEqual(['direct']);
  });

  it('status updates: dropped by default, kept as messages from their poster once ignore.status is off', async () => {
    const instance = await hooked('ignore status');
    const poster = newNetworkPhone();
    const first = await world.network.postStatus(poster, [instance.phone], 'my first status');
    // The device took it (its delivery receipt) before the direct message is sent: reports keep their order.
    await world.network.waitFor(() => world.network.receipts(poster).some((receipt) => receipt.messageId === first), 15_000, 'the status delivered');
    await world.network.send(poster, instance.phone, { text: 'direct' });
    await eventually(async () => delivered(instance.id, 'messages.upsert'), (list) => list.length === 1, 15_000);
    expect(delivered(instance.id, 'messages.upsert')[0]).toMatchObject({ text: 'direct', from: digitsOf(poster) });
    await settingsInPlace(instance, { ignore: { status: false } });
    const second = await world.network.postStatus(poster, [instance.phone], 'my second status');
    await eventually(async () => delivered(instance.id, 'messages.upsert'), (list) => list.length === 2, 15_000);
    expect(delivered(instance.id, 'messages.upsert').map((data) => data.text)).toEqual(['direct', 'my second status']);
    expect((await stored(instance.id, 'in')).map((message) => message.text).sort()).toEqual(['direct', 'my second status']);
    expect(first).not.toBe(second);
  });
});
