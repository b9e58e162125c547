import { randomBytes } from 'node:crypto';
import { downloadMediaMessage, jidNormalizedUser, type WAMessage } from 'baileys';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import type { ChatNetwork } from '../index.js';
import type { TestClient } from '../control/test-client.js';
import { phoneNumbers, withLinkedDevice } from './linked-device.js';

let network: ChatNetwork;
let client: TestClient;
let phone: string;
const newPhone = phoneNumbers('1558');
const jid = (number: string) => `${number}@s.whatsapp.net`;

async function received(id: string): Promise<WAMessage> {
  const update = await client.waitFor('messages.upsert', (item) => item.messages.some((message) => message.key.id === id && !!message.message));
  return update.messages.find((message) => message.key.id === id)!;
}

/** Downloads as a client does, trusting the media host's test CA. */
const download = (message: WAMessage) =>
  downloadMediaMessage(message, 'buffer', { options: { dispatcher: new Agent({ connect: { ca: network.caPem } }) } as RequestInit });

/** Polls an async probe until it holds: for state the client keeps without emitting an event. */
async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

withLinkedDevice(newPhone, (linked) => ({ network, client, phone } = linked));

describe('media from phones', () => {
  it('is encrypted with a fresh key, put on the media host, and decrypts to the bytes the phone sent', async () => {
    const from = newPhone();
    const bytes = randomBytes(12_345);
    const id = await network.send(from, phone, { image: { bytes, mimetype: 'image/jpeg', caption: 'look' } });
    const message = await received(id);
    const image = message.message!.imageMessage!;
    expect(image).toMatchObject({ caption: 'look', mimetype: 'image/jpeg' });
    expect(image.url).toMatch(new RegExp(`^https://${network.mediaHost.replace(/\./g, '\\.')}/v/`));
    expect(image.directPath).toMatch(/^\/v\//);
    expect(Number(image.fileLength)).toBe(bytes.length);
    expect(image.mediaKey).toHaveLength(32);
    expect((await download(message)).equals(bytes)).toBe(true);
  });

  it('comes as voice notes, videos, documents and stickers', async () => {
    const from = newPhone();
    const voice = randomBytes(3000);
    const audioId = await network.send(from, phone, { audio: { bytes: voice, mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 } });
    const videoId = await network.send(from, phone, { video: { bytes: randomBytes(4000), mimetype: 'video/mp4', caption: 'clip' } });
    const docId = await network.send(from, phone, { document: { bytes: randomBytes(100), mimetype: 'application/pdf', fileName: 'a.pdf', caption: 'cv' } });
    const stickerId = await network.send(from, phone, { sticker: { bytes: randomBytes(500), mimetype: 'image/webp' } });
    const audio = await received(audioId);
    expect(audio.message!.audioMessage).toMatchObject({ ptt: true, seconds: 3, mimetype: 'audio/ogg; codecs=opus' });
    expect((await download(audio)).equals(voice)).toBe(true);
    expect((await received(videoId)).message!.videoMessage).toMatchObject({ caption: 'clip', mimetype: 'video/mp4' });
    expect((await received(docId)).message!.documentMessage).toMatchObject({ fileName: 'a.pdf', caption: 'cv' });
    expect((await received(stickerId)).message!.stickerMessage).toMatchObject({ mimetype: 'image/webp' });
  });

  it('can be expired: the host answers 410 for it, from the start or later', async () => {
    const from = newPhone();
    const gone = await network.send(from, phone, { document: { bytes: randomBytes(64), mimetype: 'text/plain', fileName: 'x.txt', expired: true } });
    await expect(download(await received(gone))).rejects.toMatchObject({ output: { statusCode: 410 } });
    const later = await network.send(from, phone, { image: { bytes: randomBytes(64), mimetype: 'image/jpeg' } });
    const message = await received(later);
    await download(message);
    network.expireMedia(from, later);
    await expect(download(message)).rejects.toMatchObject({ output: { statusCode: 410 } });
    expect(() => network.expireMedia(from, 'NOPE')).toThrow(expect.objectContaining({ status: 404 }));
  });
});

describe('other content from phones', () => {
  it('sends contacts, reactions and replies', async () => {
    const from = newPhone();
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nTEL;type=CELL:+15550000000\nEND:VCARD';
    const contactId = await network.send(from, phone, { contact: { displayName: 'Ann', vcard } });
    expect((await received(contactId)).message!.contactMessage).toMatchObject({ displayName: 'Ann', vcard });

    const sent = await client.sock.sendMessage(jid(from), { text: 'what do you think?' });
    await network.waitForInbox(from, 1);
    const reactionId = await network.send(from, phone, { reaction: { messageId: sent!.key.id!, emoji: '👍' } });
    const reactions = await client.waitFor('messages.reaction', (items) => items.some((item) => item.key.id === sent!.key.id));
    expect(reactions[0]).toMatchObject({ key: { id: sent!.key.id, fromMe: true }, reaction: { text: '👍', key: { id: reactionId } } });

    const replyId = await network.send(from, phone, { text: 'I agree' }, { quoted: sent!.key.id! });
    const reply = (await received(replyId)).message!.extendedTextMessage!;
    expect(reply.text).toBe('I agree');
    expect(reply.contextInfo).toMatchObject({ stanzaId: sent!.key.id, participant: jid(phone) });
    expect(reply.contextInfo?.quotedMessage?.extendedTextMessage?.text ?? reply.contextInfo?.quotedMessage?.conversation).toBe('what do you think?');
  });

  it('keeps what devices react, reply, edit and delete in the phone inbox as a phone shows it', async () => {
    const to = newPhone();
    const original = await network.send(to, phone, { text: 'hi there' });
    const incoming = await received(original);
    const text = await client.sock.sendMessage(jid(to), { text: 'first version' });
    const textKey = { ...text!.key };
    await client.sock.sendMessage(jid(to), { react: { text: '❤️', key: incoming.key } });
    const reply = await client.sock.sendMessage(jid(to), { text: 'a reply' }, { quoted: incoming });
    // Copies of the keys: the client reuses key objects it is given for the messages it builds with them.
    const replyKey = { ...reply!.key };
    await network.waitForInbox(to, 3);
    await client.sock.sendMessage(jid(to), { text: 'second version', edit: { ...textKey } });
    await network.waitFor(() => network.inbox(to).find((message) => message.id === textKey.id)?.edited, 15_000, 'the edit');
    await client.sock.sendMessage(jid(to), { delete: { ...replyKey } });
    await network.waitFor(() => network.inbox(to).find((message) => message.id === replyKey.id)?.revoked, 15_000, 'the revoke');
    const inbox = network.inbox(to);
    expect(inbox).toHaveLength(3);
    expect(inbox[0]).toMatchObject({ type: 'text', text: 'second version', edited: true });
    expect(inbox[1]).toMatchObject({ type: 'reaction', reaction: { messageId: original, emoji: '❤️' } });
    expect(inbox[2]).toMatchObject({ type: 'text', text: 'a reply', revoked: true, quoted: { messageId: original } });
  });
});

describe('LIDs', () => {
  it('a phone can write as its LID alone; later its phone tells the device whose LID that is', async () => {
    const from = newPhone();
    const lid = `${network.lidOf(from)}@lid`;
    const id = await network.send(from, phone, { text: 'who am I?' }, { asLid: true });
    const message = await received(id);
    expect(message.key.remoteJid).toBe(lid);
    expect(message.key.remoteJidAlt).toBeUndefined();
    const mapping = client.sock.signalRepository.lidMapping;
    expect(await mapping.getPNForLID(lid)).toBeFalsy();

    network.shareLidMapping(phone, [from]);
    expect(jidNormalizedUser(await eventually(() => mapping.getPNForLID(lid)))).toBe(jid(from));
  });

  it('a phone can write from its LID naming its number (sender_pn); devices can write to LIDs', async () => {
    const from = newPhone();
    const lid = `${network.lidOf(from)}@lid`;
    const id = await network.send(from, phone, { text: 'lid first' }, { addressing: 'lid' });
    const message = await received(id);
    expect(message.key).toMatchObject({ remoteJid: lid, remoteJidAlt: jid(from) });

    const sent = await client.sock.sendMessage(lid, { text: 'to your lid' });
    const [entry] = await network.waitForInbox(from, 1);
    expect(entry).toMatchObject({ id: sent!.key.id, from: phone, chat: lid, text: 'to your lid' });
    await network.receipt(from, sent!.key.id!, 'read');
    await client.until(() => client.statusOf(sent!.key.id!) >= 4);
  });
});
