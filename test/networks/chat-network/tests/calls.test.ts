import { describe, expect, it } from 'vitest';
import type { ChatNetwork } from '../index.js';
import type { TestClient } from '../control/test-client.js';
import { phoneNumbers, withLinkedDevice } from './linked-device.js';

// Calls and status updates from phones to a linked device (the real client): what the library makes
// of each call step and of a status update, and what the network records of the device's rejectCall.

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1562');
const jid = (number: string) => `${number}@s.whatsapp.net`;

withLinkedDevice(newPhone, (linked) => ({ network, client, phone } = linked));

const stepOf = (id: string, status: string) => client.waitFor('call', (calls) => calls.some((call) => call.id === id && call.status === status));

describe('a phone calls a linked device', () => {
  it('an offer rings with the caller and the kind of call; the device rejects it and the network records it', async () => {
    const caller = newPhone();
    const id = network.call(caller, phone, { video: true });
    const [offer] = (await stepOf(id, 'offer')).filter((call) => call.id === id);
    expect(offer).toMatchObject({ id, from: jid(caller), chatId: jid(caller), isVideo: true, isGroup: false, offline: false });
    await client.sock.rejectCall(id, jid(caller));
    expect(network.calls(caller)).toEqual([{ id, from: caller, to: phone, video: true, status: 'rejected', rejectedBy: expect.stringMatching(new RegExp(`^${phone}:\\d+@s\\.whatsapp\\.net$`)), at: expect.any(Date) }]);
  });

  it('a ringing call ends taken or declined on the phone, unanswered or given up; an ended one cannot end again', async () => {
    const caller = newPhone();
    const taken = network.call(caller, phone);
    await stepOf(taken, 'offer');
    network.endCall(taken, 'accept');
    expect((await stepOf(taken, 'accept')).find((call) => call.id === taken)).toMatchObject({ isVideo: false });
    const unanswered = network.call(caller, phone);
    await stepOf(unanswered, 'offer');
    network.endCall(unanswered, 'timeout');
    await stepOf(unanswered, 'timeout');
    const givenUp = network.call(caller, phone);
    await stepOf(givenUp, 'offer');
    network.endCall(givenUp, 'hangup');
    await stepOf(givenUp, 'terminate');
    const declined = network.call(caller, phone);
    await stepOf(declined, 'offer');
    network.endCall(declined, 'reject');
    await stepOf(declined, 'reject');
    expect(network.calls(caller).map((call) => call.status)).toEqual(['accepted', 'timeout', 'missed', 'rejected']);
    expect(() => network.endCall(taken, 'hangup')).toThrow(/not ringing/);
    expect(() => network.endCall('NO-SUCH-CALL', 'hangup')).toThrow(/no call/);
  });
});

describe('a phone posts a status update', () => {
  it('over the control API: the device gets it from status@broadcast with the phone as participant', async () => {
    const poster = newPhone();
    const answer = await fetch(`${network.controlUrl}/control/phones/${poster}/status`, { method: 'POST', body: JSON.stringify({ viewers: [phone], text: 'out for lunch' }) });
    expect(answer.status).toBe(201);
    const { id } = ((await answer.json()) as { data: { id: string } }).data;
    const update = await client.waitFor('messages.upsert', (item) => item.messages.some((message) => message.key.id === id));
    const status = update.messages.find((message) => message.key.id === id)!;
    expect(status.key).toMatchObject({ remoteJid: 'status@broadcast', participant: jid(poster), fromMe: false });
    expect(status.message?.conversation ?? status.message?.extendedTextMessage?.text).toBe('out for lunch');
  });
});
