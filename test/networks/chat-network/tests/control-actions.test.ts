import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatNetwork, type ChatNetwork } from '../index.js';
import { connectClient, memoryAuth, trustNetwork, type TestClient } from '../control/test-client.js';
import { phoneNumbers } from './linked-device.js';

// The control API's routes for message kinds, phone actions and group management, over HTTP.

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1553');
const jid = (number: string) => `${number}@s.whatsapp.net`;

interface Envelope {
  success: boolean;
  data?: any;
  error?: { code: string; message: string };
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope }> {
  const response = await fetch(`${network.controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Envelope };
}

const upserted = (id: string) =>
  client.waitFor('messages.upsert', (update) => update.messages.some((message) => message.key.id === id && !!message.message));

beforeAll(async () => {
  network = await startChatNetwork();
  trustNetwork(network);
  phone = newPhone();
  const auth = memoryAuth();
  const registering = connectClient(network, auth);
  const { qr } = await registering.waitFor('connection.update', (update) => !!update.qr);
  await call('POST', '/control/scan', { qr, phone });
  await registering.closed;
  client = connectClient(network, auth);
  await client.waitFor('connection.update', (update) => update.connection === 'open');
});

afterAll(async () => {
  await client?.end();
  await network?.close();
});

describe('control API: kinds and actions', () => {
  it('shows a poll the device sent with its secret; the phone votes, edits and sends cards and mentions', async () => {
    const peer = newPhone();
    const poll = await client.sock.sendMessage(jid(peer), { poll: { name: 'Q', values: ['A', 'B'], selectableCount: 1 } });
    await network.waitForInbox(peer, 1);
    const [shown] = (await call('GET', `/control/phones/${peer}/messages`)).body.data;
    expect(shown).toMatchObject({ id: poll!.key.id, type: 'poll', poll: { name: 'Q', options: ['A', 'B'], selectableCount: 1, secret: expect.any(String) } });
    expect(shown).toMatchObject({ mentions: [], voice: false, edited: false, editedAt: null, revoked: false, contacts: null });

    const vote = await call('POST', `/control/phones/${peer}/votes`, { messageId: poll!.key.id, to: phone, options: ['B'] });
    expect(vote).toMatchObject({ status: 201, body: { data: { id: expect.any(String), pollCreatorJid: jid(phone), voterJid: jid(peer) } } });
    await upserted(vote.body.data.id);

    const sent = await call('POST', `/control/phones/${peer}/messages`, { to: phone, text: `hi @${phone}`, mentions: [phone] });
    await upserted(sent.body.data.id);
    const edit = await call('POST', `/control/phones/${peer}/edits`, { messageId: sent.body.data.id, to: phone, text: 'hello' });
    expect(edit.status).toBe(200);
    await client.waitFor('messages.update', (updates) => updates.some((item) => item.key.id === sent.body.data.id && !!item.update.message?.editedMessage));
    const cards = [{ displayName: 'A', vcard: 'BEGIN:VCARD\nFN:A\nEND:VCARD' }, { displayName: 'B', vcard: 'BEGIN:VCARD\nFN:B\nEND:VCARD' }];
    const contacts = await call('POST', `/control/phones/${peer}/messages`, { to: phone, contacts: cards });
    expect((await upserted(contacts.body.data.id)).messages[0]!.message!.contactsArrayMessage!.contacts).toHaveLength(2);
    const ownPoll = await call('POST', `/control/phones/${peer}/messages`, { to: phone, poll: { name: 'P', options: ['x', 'y'] } });
    expect((await upserted(ownPoll.body.data.id)).messages[0]!.message!.pollCreationMessage).toMatchObject({ name: 'P' });
  });

  it('takes numbers off the network and sets who may add a phone to groups', async () => {
    const gone = newPhone();
    expect(await call('POST', `/control/phones/${gone}/registration`, { registered: false })).toMatchObject({ status: 200, body: { data: { registered: false } } });
    expect(await client.sock.onWhatsApp(gone)).toEqual([]);
    const shy = newPhone();
    expect((await call('POST', `/control/phones/${shy}/privacy`, { acceptsGroupAdds: false })).status).toBe(200);
    const owner = newPhone();
    const group = (await call('POST', '/control/groups', { owner, subject: 'G', participants: [phone] })).body.data.jid;
    const newcomer = newPhone();
    const changed = await call('POST', `/control/groups/${group}/participants`, { actor: owner, add: [newcomer, shy, gone], promote: [phone] });
    expect(changed.body.data.results).toEqual([
      { phone: newcomer, status: '200', action: 'add' },
      { phone: shy, status: '403', action: 'add' },
      { phone: gone, status: '404', action: 'add' },
      { phone, status: '200', action: 'promote' },
    ]);
    const settings = await call('POST', `/control/groups/${group}/settings`, { actor: owner, announce: true });
    expect(settings.body.data).toMatchObject({ announce: true, restrict: false });
    const { code } = (await call('POST', `/control/groups/${group}/invite`, { actor: owner })).body.data;
    expect((await call('GET', `/control/groups/${group}`)).body.data.inviteCode).toBe(code);
    const joiner = newPhone();
    const joined = await call('POST', '/control/groups/join', { phone: joiner, code });
    expect(joined.body.data.participants.map((p: { phone: string }) => p.phone)).toContain(joiner);
    const left = await call('POST', `/control/groups/${group}/leave`, { phone: joiner });
    expect(left.body.data.participants.map((p: { phone: string }) => p.phone)).not.toContain(joiner);
    expect(await call('POST', `/control/groups/${group}/participants`, { actor: newcomer, remove: [owner] })).toMatchObject({
      status: 403,
      body: { error: { code: 'not_an_admin' } },
    });
  });

  it.each([
    ['a vote without options', 'POST', '/control/phones/15550000001/votes', { messageId: 'X', to: '15550000002' }, 400, 'validation_error'],
    ['a vote on nothing', 'POST', '/control/phones/15550000001/votes', { messageId: 'X', to: '15550000002', options: [] }, 404, 'unknown_message'],
    ['an edit without text', 'POST', '/control/phones/15550000001/edits', { messageId: 'X', to: '15550000002' }, 400, 'validation_error'],
    ['an edit of nothing', 'POST', '/control/phones/15550000001/edits', { messageId: 'X', to: '15550000002', text: 'a' }, 404, 'unknown_message'],
    ['a poll with one option', 'POST', '/control/phones/15550000001/messages', { to: '15550000002', poll: { name: 'a', options: ['x'] } }, 400, 'validation_error'],
    ['no cards', 'POST', '/control/phones/15550000001/messages', { to: '15550000002', contacts: [] }, 400, 'validation_error'],
    ['registration without a value', 'POST', '/control/phones/15550000001/registration', {}, 400, 'validation_error'],
    ['privacy without a value', 'POST', '/control/phones/15550000001/privacy', { acceptsGroupAdds: 'no' }, 400, 'validation_error'],
    ['settings without a change', 'POST', '/control/groups/1203630000@g.us/settings', { actor: '15550000001' }, 400, 'validation_error'],
    ['a join by an unknown code', 'POST', '/control/groups/join', { phone: '15550000001', code: 'nope' }, 404, 'unknown_invite'],
    ['an invite of an unknown group', 'POST', '/control/groups/1203630000@g.us/invite', { actor: '15550000001' }, 404, 'unknown_group'],
    ['a leave of an unknown group', 'POST', '/control/groups/1203630000@g.us/leave', { phone: '15550000001' }, 404, 'unknown_group'],
  ] as const)('answers %s with a %i… envelope', async (_, method, path, body, status, code) => {
    expect(await call(method, path, body)).toMatchObject({ status, body: { success: false, error: { code } } });
  });
});
