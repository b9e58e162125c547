import { describe, expect, it } from 'vitest';
import type { ChatNetwork } from '../index.js';
import { pairByQr, type TestClient } from '../control/test-client.js';
import { phoneNumbers, withLinkedDevice } from './linked-device.js';

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1559');
const jid = (number: string) => `${number}@s.whatsapp.net`;
const lid = (number: string) => `${network.lidOf(number)}@lid`;

withLinkedDevice(newPhone, (linked) => ({ network, client, phone } = linked));

describe('groups', () => {
  it('a phone creates a group, adds someone and renames it; the device hears each and reads the same metadata', async () => {
    const owner = newPhone();
    const other = newPhone();
    const group = network.groupCreate(owner, 'Team', [phone, other]);
    expect(group).toMatch(/^\d+@g\.us$/);
    const [created] = await client.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));
    expect(created).toMatchObject({ id: group, subject: 'Team', owner: lid(owner), ownerPn: jid(owner), addressingMode: 'lid' });
    expect(created!.participants.map((participant) => participant.id).sort()).toEqual([lid(owner), lid(phone), lid(other)].sort());

    const newcomer = newPhone();
    network.groupAddParticipants(owner, group, [newcomer]);
    const added = await client.waitFor('group-participants.update', (update) => update.id === group && update.action === 'add');
    expect(added.participants.map((participant) => participant.id)).toEqual([lid(newcomer)]);
    expect(added.participants[0]).toMatchObject({ phoneNumber: jid(newcomer) });

    network.groupSetSubject(other, group, 'Team B');
    await client.waitFor('groups.update', (updates) => updates.some((update) => update.id === group && update.subject === 'Team B'));

    const metadata = await client.sock.groupMetadata(group);
    expect(metadata).toMatchObject({ id: group, subject: 'Team B', subjectOwner: lid(other), size: 4 });
    expect(metadata.participants.find((participant) => participant.id === lid(owner))).toMatchObject({ admin: 'superadmin', phoneNumber: jid(owner) });
    expect(Object.keys(await client.sock.groupFetchAllParticipating())).toContain(group);

    network.groupRemoveParticipants(owner, group, [phone]);
    const removed = await client.waitFor('group-participants.update', (update) => update.id === group && update.action === 'remove');
    expect(removed.participants.map((participant) => participant.id)).toEqual([lid(phone)]);
    await expect(client.sock.groupMetadata(group)).rejects.toMatchObject({ message: 'forbidden', data: 403 });
    expect(network.group(group).participants.map((participant) => participant.phone).sort()).toEqual([owner, other, newcomer].sort());
  });

  it('a device creates a group and changes it through w:g2 queries; the network keeps it consistent', async () => {
    const friend = newPhone();
    const created = await client.sock.groupCreate('From the device', [jid(friend)]);
    expect(network.group(created.id)).toMatchObject({ subject: 'From the device', creator: phone });
    expect(network.group(created.id).participants.map((participant) => participant.phone).sort()).toEqual([phone, friend].sort());
    await client.sock.groupUpdateSubject(created.id, 'Renamed');
    await client.sock.groupUpdateDescription(created.id, 'About us');
    const metadata = await client.sock.groupMetadata(created.id);
    expect(metadata).toMatchObject({ subject: 'Renamed', desc: 'About us' });
    await expect(client.sock.groupMetadata('120363000000000000@g.us')).rejects.toMatchObject({ message: 'item-not-found', data: 404 });
  });

  it('carries group messages: from a device to the members’ phones and devices, from a phone to the devices', async () => {
    const owner = newPhone();
    const friend = newPhone();
    const other = await pairByQr(network, friend);
    try {
      const group = network.groupCreate(owner, 'Chat', [phone, friend]);
      await client.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));
      await other.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));

      const sent = await client.sock.sendMessage(group, { text: 'hello group' });
      const id = sent!.key.id!;
      const [atOwner] = await network.waitForInbox(owner, 1);
      expect(atOwner).toMatchObject({ id, from: phone, chat: group, text: 'hello group' });
      await network.waitForInbox(friend, 1);
      const relayed = await other.waitFor('messages.upsert', (update) => update.messages.some((message) => message.key.id === id && !!message.message));
      const copy = relayed.messages.find((message) => message.key.id === id)!;
      expect(copy.key).toMatchObject({ remoteJid: group, participant: lid(phone), fromMe: false });
      expect(copy.message?.conversation ?? copy.message?.extendedTextMessage?.text).toBe('hello group');

      await network.receipt(owner, id, 'read');
      // Group receipts name the member (the client may fold them into the upsert of its own message).
      const read = await client.until(() => client.receiptsOf(id).find((receipt) => receipt.userJid === lid(owner) && receipt.readTimestamp));
      expect(Number(read.readTimestamp)).toBeGreaterThan(0);
      await client.until(() => client.receiptsOf(id).some((receipt) => receipt.userJid === lid(friend)));

      const first = await network.send(owner, group, { text: 'hi all' });
      const second = await network.send(owner, group, { text: 'again' }, { quoted: id });
      for (const device of [client, other]) {
        for (const [messageId, text] of [[first, 'hi all'], [second, 'again']] as const) {
          const update = await device.waitFor('messages.upsert', (item) => item.messages.some((message) => message.key.id === messageId && !!message.message));
          const message = update.messages.find((item) => item.key.id === messageId)!;
          expect(message.key).toMatchObject({ remoteJid: group, participant: lid(owner) });
          expect(message.message?.conversation ?? message.message?.extendedTextMessage?.text).toBe(text);
        }
      }
      const reply = (await client.waitFor('messages.upsert', (item) => item.messages.some((message) => message.key.id === second))).messages.find(
        (message) => message.key.id === second,
      )!;
      expect(reply.message?.extendedTextMessage?.contextInfo).toMatchObject({ stanzaId: id, participant: lid(phone) });
      const encTypes = (messageId: string) =>
        network.deliveries().filter((item) => item.id === messageId && item.phone === phone).map((item) => item.encType);
      // The first carries the owner's sender key in a pairwise copy; the next needs only the group ciphertext.
      expect(encTypes(first)).toEqual([expect.stringMatching(/^(pkmsg|msg)\+skmsg$/)]);
      expect(encTypes(second)).toEqual(['skmsg']);
    } finally {
      await other.end();
    }
  });

  it('refuses changes by non-members and to unknown groups', () => {
    const group = network.groupCreate(newPhone(), 'Closed', []);
    expect(() => network.groupSetSubject(newPhone(), group, 'Mine')).toThrow(expect.objectContaining({ status: 400, code: 'not_a_member' }));
    expect(() => network.groupSetSubject(newPhone(), '1203630@g.us', 'x')).toThrow(expect.objectContaining({ status: 404 }));
  });
});

describe('presence', () => {
  it('a phone shows itself online and typing to a device that subscribed', async () => {
    const friend = newPhone();
    await client.sock.presenceSubscribe(jid(friend));
    await client.waitFor('presence.update', (update) => update.id === jid(friend) && update.presences[jid(friend)]?.lastKnownPresence === 'unavailable');
    network.presence(friend, phone, 'available');
    await client.waitFor('presence.update', (update) => update.id === jid(friend) && update.presences[jid(friend)]?.lastKnownPresence === 'available');
    network.presence(friend, phone, 'composing');
    await client.waitFor('presence.update', (update) => update.presences[jid(friend)]?.lastKnownPresence === 'composing');
    network.presence(friend, phone, 'recording');
    await client.waitFor('presence.update', (update) => update.presences[jid(friend)]?.lastKnownPresence === 'recording');
    expect(() => network.presence(friend, phone, 'sleeping' as 'available')).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('keeps what devices announce: their typing to a phone, their own presence', async () => {
    const friend = newPhone();
    await client.sock.sendPresenceUpdate('composing', jid(friend));
    await network.waitFor(() => network.chatStates(friend).length === 1);
    expect(network.chatStates(friend)[0]).toMatchObject({ from: phone, state: 'composing' });
    client.sock.authState.creds.me!.name = 'Device';
    await client.sock.sendPresenceUpdate('available');
    await network.waitFor(() => network.presenceOf(phone).type === 'available');
  });
});

describe('contacts', () => {
  it('a new push name travels with the next message; a new picture is announced and served', async () => {
    const friend = newPhone();
    network.setProfile(friend, { pushName: 'Bob' });
    const id = await network.send(friend, phone, { text: 'I am Bob now' });
    const contacts = await client.waitFor('contacts.update', (updates) => updates.some((update) => update.id === jid(friend) && update.notify === 'Bob'));
    expect(contacts.length).toBeGreaterThan(0);
    expect(id).toBeTruthy();

    network.setProfile(friend, { picture: PNG_1PX, to: [phone] });
    await client.waitFor('contacts.update', (updates) => updates.some((update) => update.id === jid(friend) && update.imgUrl === 'changed'));
    const url = await client.sock.profilePictureUrl(jid(friend));
    expect(url).toMatch(new RegExp(`^https://${network.mediaHost.replace(/\./g, '\\.')}/`));
    network.setProfile(friend, { picture: null, to: [phone] });
    await client.waitFor('contacts.update', (updates) => updates.some((update) => update.id === jid(friend) && update.imgUrl === 'removed'));
    await expect(client.sock.profilePictureUrl(jid(friend))).rejects.toMatchObject({ message: 'item-not-found', data: 404 });
  });
});
