import { createHash } from 'node:crypto';
import { decryptPollVote, WAMessageStatus, type WAMessage } from 'baileys';
import { describe, expect, it } from 'vitest';
import type { ChatNetwork } from '../index.js';
import type { TestClient } from '../control/test-client.js';
import { phoneNumbers, withLinkedDevice } from './linked-device.js';

// Messages in groups, both ways, through sender keys: what participants' phones decode, and what
// a linked device gets from them.

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1554');
const lid = (number: string) => `${network.lidOf(number)}@lid`;
const hash = (option: string) => createHash('sha256').update(option).digest('hex');

async function upserted(id: string): Promise<WAMessage> {
  const update = await client.waitFor('messages.upsert', (item) => item.messages.some((message) => message.key.id === id && !!message.message));
  return update.messages.find((message) => message.key.id === id)!;
}

/** The message failed with the network's code 403, whether the client told it as an update or folded it into its upsert. */
function refused(id: string): boolean {
  return client.events.some(({ name, data }) => {
    const items =
      name === 'messages.upsert'
        ? (data as { messages: WAMessage[] }).messages
        : name === 'messages.update'
          ? (data as { key: WAMessage['key']; update: Partial<WAMessage> }[]).map(({ key, update }) => ({ key, ...update }))
          : [];
    return items.some((item) => item.key.id === id && item.messageStubParameters?.[0] === '403' && [WAMessageStatus.ERROR, 'ERROR'].includes(item.status as never));
  });
}

async function groupWith(subject: string, members: string[]): Promise<string> {
  const group = network.groupCreate(members[0]!, subject, [phone, ...members.slice(1)]);
  await client.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));
  return group;
}

withLinkedDevice(newPhone, (linked) => ({ network, client, phone } = linked));

describe('group messages', () => {
  it('a device’s text with mentions and its poll reach every participant phone, decrypted with its sender key', async () => {
    const [owner, friend] = [newPhone(), newPhone()];
    const group = await groupWith('Plans', [owner, friend]);
    const text = await client.sock.sendMessage(group, { text: `@${owner} @${friend} lunch?`, mentions: [lid(owner), lid(friend)] });
    for (const member of [owner, friend]) {
      const [entry] = await network.waitForInbox(member, 1);
      expect(entry).toMatchObject({ id: text!.key.id, from: phone, chat: group, type: 'text', mentions: [owner, friend] });
    }
    const poll = await client.sock.sendMessage(group, { poll: { name: 'Where?', values: ['Here', 'There'], selectableCount: 1 } });
    await network.waitForInbox(friend, 2);
    const [atOwner] = (await network.waitForInbox(owner, 2)).slice(1);
    expect(atOwner).toMatchObject({ id: poll!.key.id, chat: group, type: 'poll', poll: { name: 'Where?', options: ['Here', 'There'], selectableCount: 1 } });
    // Only the first message carried the sender key (pairwise); the poll came as the group ciphertext alone.
    expect(network.received().find((stanza) => stanza.id === poll!.key.id)?.recipients).toEqual([]);

    const vote = await network.vote(friend, poll!.key.id!, group, ['There']);
    expect(vote).toMatchObject({ pollCreatorJid: lid(phone), voterJid: lid(friend) });
    const received = await upserted(vote.id);
    expect(received.key).toMatchObject({ remoteJid: group, participant: lid(friend), fromMe: false });
    const update = received.message!.pollUpdateMessage!;
    const options = decryptPollVote(update.vote!, {
      pollCreatorJid: lid(phone),
      pollMsgId: poll!.key.id!,
      pollEncKey: poll!.message!.messageContextInfo!.messageSecret!,
      voterJid: received.key.participant!,
    }).selectedOptions!.map((option) => Buffer.from(option).toString('hex'));
    expect(options).toEqual([hash('There')]);
  });

  it('a participant phone writes, reacts, edits and deletes in the group; the device gets each from that participant', async () => {
    const [owner, friend] = [newPhone(), newPhone()];
    const group = await groupWith('Talk', [owner, friend]);
    const mine = await client.sock.sendMessage(group, { text: 'my news' });
    await network.waitForInbox(friend, 1);

    const id = await network.send(friend, group, { text: `hi @${phone}` }, { mentions: [phone] });
    const message = await upserted(id);
    expect(message.key).toMatchObject({ remoteJid: group, participant: lid(friend) });
    expect(message.message!.extendedTextMessage).toMatchObject({ text: `hi @${phone}`, contextInfo: { mentionedJid: [lid(phone)] } });

    const reaction = await network.send(friend, group, { reaction: { messageId: mine!.key.id!, emoji: '🔥' } });
    const [reacted] = await client.waitFor('messages.reaction', (items) => items.some((item) => item.reaction.key?.id === reaction));
    expect(reacted).toMatchObject({ key: { id: mine!.key.id, fromMe: true }, reaction: { text: '🔥' } });

    await network.edit(friend, id, group, 'hi all');
    const [edit] = await client.waitFor('messages.update', (updates) => updates.some((item) => item.key.id === id && !!item.update.message?.editedMessage));
    expect(edit!.key).toMatchObject({ remoteJid: group, participant: lid(friend) });
    expect(edit!.update.message!.editedMessage!.message).toMatchObject({ conversation: 'hi all' });

    await network.revoke(friend, id, group);
    const [revoke] = await client.waitFor('messages.update', (updates) => updates.some((item) => item.key.id === id && item.update.message === null));
    expect(revoke!.key).toMatchObject({ remoteJid: group });
  });

  it('in an announcement-only group only admins write: the network refuses the others', async () => {
    const owner = newPhone();
    const group = await groupWith('News', [owner]);
    network.groupSetSettings(owner, group, { announce: true });
    await client.waitFor('groups.update', (updates) => updates.some((update) => update.id === group && update.announce === true));
    const sent = await client.sock.sendMessage(group, { text: 'may I?' });
    // The refusal (the ack's error) marks the message failed; the client may fold it into the upsert of its own send.
    await client.until(() => refused(sent!.key.id!), 15_000, 'the refusal');
    await expect(network.send(newPhone(), group, { text: 'x' })).rejects.toMatchObject({ status: 400, code: 'not_a_member' });
    const reader = newPhone();
    network.groupJoin(reader, network.group(group).inviteCode);
    await expect(network.send(reader, group, { text: 'me too' })).rejects.toMatchObject({ status: 403, code: 'announcement_only' });
    const announcement = await network.send(owner, group, { text: 'announcement' });
    expect((await upserted(announcement)).key.participant).toBe(lid(owner));
    expect(network.inbox(owner)).toEqual([]);
  });

  it('a device typing in a group shows to every other member', async () => {
    const [owner, friend] = [newPhone(), newPhone()];
    const group = await groupWith('Typing', [owner, friend]);
    await client.sock.sendPresenceUpdate('composing', group);
    for (const member of [owner, friend]) {
      const [state] = await network.waitFor(() => network.chatStates(member).length > 0 && network.chatStates(member), 15_000, `typing at ${member}`);
      expect(state).toMatchObject({ from: phone, chat: group, state: 'composing' });
    }
    expect(network.chatStates(phone)).toEqual([]);
  });
});
