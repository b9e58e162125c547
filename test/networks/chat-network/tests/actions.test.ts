import { createHash } from 'node:crypto';
import { decryptPollVote, jidNormalizedUser, type WAMessage } from 'baileys';
import { describe, expect, it } from 'vitest';
import type { ChatNetwork } from '../index.js';
import type { TestClient } from '../control/test-client.js';
import { phoneNumbers, withLinkedDevice } from './linked-device.js';

// What phones do toward a linked device (the real client), and what the device makes of it.

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1556');
const jid = (number: string) => `${number}@s.whatsapp.net`;
const lid = (number: string) => `${network.lidOf(number)}@lid`;
const hash = (option: string) => createHash('sha256').update(option).digest('hex');

async function upserted(id: string, device = client): Promise<WAMessage> {
  const update = await device.waitFor('messages.upsert', (item) => item.messages.some((message) => message.key.id === id && !!message.message));
  return update.messages.find((message) => message.key.id === id)!;
}

/** The options a vote carries, decrypted as a gateway does: with the poll's secret and the jids the vote names. */
function votedOptions(vote: WAMessage, secret: Uint8Array, pollCreatorJid: string, voterJid: string): string[] {
  const update = vote.message!.pollUpdateMessage!;
  const decrypted = decryptPollVote(update.vote!, { pollCreatorJid, pollMsgId: update.pollCreationMessageKey!.id!, pollEncKey: secret, voterJid });
  return decrypted.selectedOptions!.map((option) => Buffer.from(option).toString('hex'));
}

withLinkedDevice(newPhone, (linked) => ({ network, client, phone } = linked));

describe('a phone acts toward a linked device', () => {
  it('edits its message: the device gets the new text for that message id', async () => {
    const from = newPhone();
    const id = await network.send(from, phone, { text: 'see you at 5' });
    await upserted(id);
    const editId = await network.edit(from, id, phone, 'see you at 6');
    const [edit] = await client.waitFor('messages.update', (updates) => updates.some((item) => item.key.id === id && !!item.update.message?.editedMessage));
    expect(edit!.key).toMatchObject({ id, remoteJid: jid(from), fromMe: false });
    expect(edit!.update.message!.editedMessage!.message).toMatchObject({ conversation: 'see you at 6' });
    expect(editId).not.toBe(id);
    await expect(network.edit(from, 'NOT-SENT', phone, 'x')).rejects.toMatchObject({ status: 404 });
    await expect(network.edit(newPhone(), id, phone, 'x')).rejects.toMatchObject({ status: 404 });
  });

  it('sends several contact cards, mentions, and a poll of its own', async () => {
    const from = newPhone();
    const cards = [
      { displayName: 'Ann', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEND:VCARD' },
      { displayName: 'Bob', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Bob\nEND:VCARD' },
    ];
    const contacts = await upserted(await network.send(from, phone, { contacts: cards }));
    expect(contacts.message!.contactsArrayMessage!.contacts).toMatchObject(cards);
    const mention = await upserted(await network.send(from, phone, { text: `hey @${phone}` }, { mentions: [phone] }));
    expect(mention.message!.extendedTextMessage).toMatchObject({ text: `hey @${phone}`, contextInfo: { mentionedJid: [jid(phone)] } });
    const poll = await upserted(await network.send(from, phone, { poll: { name: 'When?', options: ['Mon', 'Tue'], selectableCount: 1 } }));
    expect(poll.message!.pollCreationMessageV3).toMatchObject({ name: 'When?', options: [{ optionName: 'Mon' }, { optionName: 'Tue' }], selectableOptionsCount: 1 });
    expect(poll.message!.messageContextInfo!.messageSecret).toHaveLength(32);
    await expect(network.send(from, phone, { poll: { name: 'x', options: ['only'] } })).rejects.toMatchObject({ status: 400 });
  });

  it('votes on a poll the device sent, changes its vote and withdraws it: each decrypts with the poll secret', async () => {
    const voter = newPhone();
    const sent = await client.sock.sendMessage(jid(voter), { poll: { name: 'Lunch?', values: ['Pizza', 'Sushi', 'Salad'], selectableCount: 0 } });
    const pollId = sent!.key.id!;
    const secret = sent!.message!.messageContextInfo!.messageSecret!;
    await network.waitFor(() => network.inbox(voter).find((message) => message.id === pollId), 15_000, 'the poll at the phone');

    const first = await network.vote(voter, pollId, phone, ['Pizza', 'Salad']);
    // By default the chat is addressed by phone number, and so is the vote: the poll author's and the voter's phone jids.
    expect(first).toMatchObject({ pollMessageId: pollId, pollCreatorJid: jid(phone), voterJid: jid(voter) });
    const vote = await upserted(first.id);
    expect(vote.key).toMatchObject({ remoteJid: jid(voter), fromMe: false });
    expect(vote.message!.pollUpdateMessage!.pollCreationMessageKey).toMatchObject({ id: pollId, fromMe: true });
    expect(votedOptions(vote, secret, jidNormalizedUser(client.sock.user!.id), vote.key.remoteJid!)).toEqual([hash('Pizza'), hash('Salad')]);
    // Bound to those jids: other ones (or another secret) do not open it.
    expect(() => votedOptions(vote, secret, jid(phone), lid(voter))).toThrow();
    expect(() => votedOptions(vote, Buffer.alloc(32, 1), jid(phone), jid(voter))).toThrow();

    const changed = await upserted((await network.vote(voter, pollId, phone, ['Sushi'])).id);
    expect(votedOptions(changed, secret, jid(phone), jid(voter))).toEqual([hash('Sushi')]);
    const withdrawn = await upserted((await network.vote(voter, pollId, phone, [])).id);
    expect(votedOptions(withdrawn, secret, jid(phone), jid(voter))).toEqual([]);

    // A chat addressed by LID binds the vote to LIDs, as the stanza names them.
    const byLid = await network.vote(voter, pollId, phone, ['Salad'], { addressing: 'lid' });
    expect(byLid).toMatchObject({ pollCreatorJid: lid(phone), voterJid: lid(voter) });
    const lidVote = await upserted(byLid.id);
    expect(lidVote.key.remoteJid).toBe(lid(voter));
    expect(votedOptions(lidVote, secret, lid(phone), lidVote.key.remoteJid!)).toEqual([hash('Salad')]);
  });

  it('refuses votes that are not ones a phone could cast', async () => {
    const voter = newPhone();
    const single = await client.sock.sendMessage(jid(voter), { poll: { name: 'One', values: ['A', 'B'], selectableCount: 1 } });
    const text = await client.sock.sendMessage(jid(voter), { text: 'not a poll' });
    await network.waitForInbox(voter, 2);
    await expect(network.vote(voter, single!.key.id!, phone, ['A', 'B'])).rejects.toMatchObject({ status: 400, code: 'too_many_options' });
    await expect(network.vote(voter, single!.key.id!, phone, ['C'])).rejects.toMatchObject({ status: 400, code: 'unknown_option' });
    await expect(network.vote(voter, text!.key.id!, phone, ['A'])).rejects.toMatchObject({ status: 400, code: 'not_a_poll' });
    await expect(network.vote(voter, 'UNKNOWN', phone, ['A'])).rejects.toMatchObject({ status: 404 });
  });
});
