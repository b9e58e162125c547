import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChatNetwork, PhoneMessage } from '../index.js';
import type { TestClient } from '../control/test-client.js';
import { phoneNumbers, withLinkedDevice } from './linked-device.js';

// What a phone decodes from each kind of message a linked device (the real client) sends it.

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1557');
const jid = (number: string) => `${number}@s.whatsapp.net`;

/** The phone's inbox entry for a message the device sent. */
const entry = (to: string, id: string) =>
  network.waitFor(() => network.inbox(to).find((message) => message.id === id), 15_000, `message ${id} at ${to}`);

async function sent(to: string, content: Parameters<TestClient['sock']['sendMessage']>[1]): Promise<PhoneMessage> {
  const message = await client.sock.sendMessage(jid(to), content);
  return entry(to, message!.key.id!);
}

withLinkedDevice(newPhone, (linked) => ({ network, client, phone } = linked));

describe('kinds a device sends, as the receiving phone decodes them', () => {
  it('text with mentions (as digits, phone jids or LIDs) and a reply', async () => {
    const to = newPhone();
    const other = newPhone();
    const first = await sent(to, { text: `hi @${other} and @${to}`, mentions: [jid(other), `${network.lidOf(to)}@lid`] });
    expect(first).toMatchObject({ type: 'text', text: `hi @${other} and @${to}`, mentions: [other, to], quoted: null });
    const incoming = await network.send(to, phone, { text: 'question?' });
    const original = (await client.waitFor('messages.upsert', (update) => update.messages.some((m) => m.key.id === incoming))).messages.find(
      (m) => m.key.id === incoming,
    )!;
    const reply = await sent(to, { text: 'answer' });
    expect(reply.quoted).toBeNull();
    const quoted = await client.sock.sendMessage(jid(to), { text: 'the answer' }, { quoted: original });
    expect(await entry(to, quoted!.key.id!)).toMatchObject({ text: 'the answer', quoted: { messageId: incoming }, mentions: [] });
  });

  it('image, video, document and sticker with their bytes; audio as a voice note with its length', async () => {
    const to = newPhone();
    const bytes = randomBytes(2048);
    const image = await sent(to, { image: bytes, caption: 'pic', mimetype: 'image/jpeg' });
    expect(image).toMatchObject({ type: 'image', caption: 'pic', mimetype: 'image/jpeg', voice: false, mediaError: null });
    expect(image.bytes?.equals(bytes)).toBe(true);
    const voice = await sent(to, { audio: bytes, ptt: true, seconds: 7, mimetype: 'audio/ogg; codecs=opus' });
    expect(voice).toMatchObject({ type: 'audio', voice: true, seconds: 7, mimetype: 'audio/ogg; codecs=opus', mediaError: null });
    const audio = await sent(to, { audio: bytes, seconds: 3, mimetype: 'audio/mpeg' });
    expect(audio).toMatchObject({ type: 'audio', voice: false, seconds: 3, mimetype: 'audio/mpeg' });
    const video = await sent(to, { video: bytes, caption: 'clip', seconds: 2, mimetype: 'video/mp4', jpegThumbnail: '' });
    expect(video).toMatchObject({ type: 'video', caption: 'clip', seconds: 2, mimetype: 'video/mp4', mediaError: null });
    const document = await sent(to, { document: bytes, fileName: 'report.pdf', mimetype: 'application/pdf', caption: 'Q3' });
    expect(document).toMatchObject({ type: 'document', fileName: 'report.pdf', caption: 'Q3', mimetype: 'application/pdf' });
    expect(document.bytes?.equals(bytes)).toBe(true);
    const sticker = await sent(to, { sticker: bytes, mimetype: 'image/webp' });
    expect(sticker).toMatchObject({ type: 'sticker', mimetype: 'image/webp', mediaError: null });
  });

  it('location, one contact card and several', async () => {
    const to = newPhone();
    const location = await sent(to, { location: { degreesLatitude: 52.52, degreesLongitude: 13.405, name: 'Office', address: 'Main St 1' } });
    expect(location).toMatchObject({ type: 'location', location: { latitude: 52.52, longitude: 13.405, name: 'Office', address: 'Main St 1' } });
    const ann = { displayName: 'Ann', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nTEL;waid=15550000001:+15550000001\nEND:VCARD' };
    const bob = { displayName: 'Bob', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Bob\nTEL;waid=15550000002:+15550000002\nEND:VCARD' };
    const one = await sent(to, { contacts: { contacts: [ann] } });
    expect(one).toMatchObject({ type: 'contact', contact: ann, contacts: [ann] });
    const two = await sent(to, { contacts: { displayName: '2 contacts', contacts: [ann, bob] } });
    expect(two).toMatchObject({ type: 'contacts', contact: null, contacts: [ann, bob] });
  });

  it('a reaction and its removal, an edit and a delete for everyone', async () => {
    const to = newPhone();
    const incoming = await network.send(to, phone, { text: 'react to me' });
    const key = { remoteJid: jid(to), fromMe: false, id: incoming };
    const reaction = await sent(to, { react: { text: '🎉', key } });
    expect(reaction).toMatchObject({ type: 'reaction', reaction: { messageId: incoming, emoji: '🎉' } });
    const removal = await sent(to, { react: { text: '', key } });
    expect(removal).toMatchObject({ type: 'reaction', reaction: { messageId: incoming, emoji: '' } });

    const original = await client.sock.sendMessage(jid(to), { text: 'frist' });
    const originalKey = { ...original!.key };
    await entry(to, originalKey.id!);
    await client.sock.sendMessage(jid(to), { text: 'first', edit: { ...originalKey } });
    const edited = await network.waitFor(() => network.inbox(to).find((m) => m.id === originalKey.id && m.edited), 15_000, 'the edit');
    expect(edited).toMatchObject({ text: 'first', edits: [{ text: 'first' }] });
    expect(edited.editedAt).toBeInstanceOf(Date);
    await client.sock.sendMessage(jid(to), { delete: { ...originalKey } });
    const revoked = await network.waitFor(() => network.inbox(to).find((m) => m.id === originalKey.id && m.revoked), 15_000, 'the revoke');
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    // Neither the edit nor the revoke is a message of its own.
    expect(network.inbox(to).map((m) => m.type)).toEqual(['reaction', 'reaction', 'text']);
  });

  it('a poll, single or multiple choice, with the secret votes are encrypted with', async () => {
    const to = newPhone();
    const single = await sent(to, { poll: { name: 'Lunch?', values: ['Pizza', 'Sushi', 'Salad'], selectableCount: 1 } });
    expect(single).toMatchObject({ type: 'poll', poll: { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], selectableCount: 1 } });
    expect(Buffer.from(single.poll!.secret!, 'base64')).toHaveLength(32);
    expect(single.message.pollCreationMessageV3).toBeTruthy();
    const multiple = await sent(to, { poll: { name: 'Days', values: ['Mon', 'Tue'], selectableCount: 0 } });
    expect(multiple).toMatchObject({ type: 'poll', poll: { name: 'Days', options: ['Mon', 'Tue'], selectableCount: 0 } });
    expect(multiple.message.pollCreationMessage).toBeTruthy();
  });
});

describe('what else a device tells a phone', () => {
  it('read receipts for messages the phone sent', async () => {
    const from = newPhone();
    const first = await network.send(from, phone, { text: 'one' });
    const second = await network.send(from, phone, { text: 'two' });
    const update = await client.waitFor('messages.upsert', (item) => item.messages.some((m) => m.key.id === second));
    await client.sock.readMessages(update.messages.filter((m) => m.key.id === second).map((m) => m.key));
    const read = await network.waitFor(() => network.receipts(from).find((r) => r.messageId === second && r.type === 'read'), 15_000, 'the read');
    expect(read).toMatchObject({ from: phone, type: 'read' });
    expect(network.receipts(from).some((r) => r.messageId === first && r.type === 'read')).toBe(false);
  });

  it('typing, recording and paused to a chat; online and offline', async () => {
    const to = newPhone();
    await client.sock.sendPresenceUpdate('composing', jid(to));
    await client.sock.sendPresenceUpdate('recording', jid(to));
    await client.sock.sendPresenceUpdate('paused', jid(to));
    const states = await network.waitFor(() => network.chatStates(to).length === 3 && network.chatStates(to), 15_000, 'three chat states');
    expect(states.map((state) => [state.from, state.chat, state.state])).toEqual([
      [phone, to, 'composing'],
      [phone, to, 'recording'],
      [phone, to, 'paused'],
    ]);
    client.sock.authState.creds.me!.name = 'Device';
    await client.sock.sendPresenceUpdate('available');
    await network.waitFor(() => network.presenceOf(phone).type === 'available', 15_000, 'online');
    await client.sock.sendPresenceUpdate('unavailable');
    const offline = await network.waitFor(() => network.presenceOf(phone).type === 'unavailable' && network.presenceOf(phone), 15_000, 'offline');
    expect(offline.lastSeen).toBeGreaterThan(0);
  });

  it('number checks: numbers on the network exist (with their LID when asked), others do not', async () => {
    const known = newPhone();
    const unknown = newPhone();
    network.setRegistered(unknown, false);
    // The client leaves out numbers the network answered `out` for.
    expect(await client.sock.onWhatsApp(known, `+${unknown}`)).toEqual([{ jid: jid(known), exists: true }]);
    const [lid] = (await client.sock.signalRepository.lidMapping.getLIDsForPNs([jid(known)])) ?? [];
    expect(lid).toMatchObject({ lid: `${network.lidOf(known)}@lid` });
    network.setRegistered(unknown, true);
    expect(await client.sock.onWhatsApp(unknown)).toEqual([{ jid: jid(unknown), exists: true }]);
  });
});
