import { createHash, randomBytes } from 'node:crypto';
import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { sentTextReader } from '../../../../src/engines/baileys/sent-text.js';
import { mp3, oggOpus, PNG_1PX } from '../../../kit/files.js';
import type { PhoneMessage } from '../../../networks/chat-network/types.js';

const sha256 = (bytes: Buffer | null) => (bytes ? createHash('sha256').update(bytes).digest('hex') : null);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20_000)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0x10, 0, 0]), Buffer.from('WEBPVP8 '), randomBytes(4_000)]);
const OGG = oggOpus(300);
const MP3 = mp3(15);
const b64 = (bytes: Buffer) => bytes.toString('base64');

describe.each(MODES)('CHAT-BAILEYS: every kind and action through a named instance, as the receiving phone decodes it — $name', (mode) => {
  const world = baileysWorld(mode, { files: { '/picture.png': { type: 'image/png', body: PNG_1PX } } });
  let instance: { id: string; phone: string; secret: string };
  /** The instance's number as the network's phones know it (digits). */
  let own: string;
  let key: string;

  beforeAll(async () => {
    key = world.tenant.liveKey;
    instance = await pairedV1(world.api, key, world.network, `messaging ${Date.now()}`);
    own = instance.phone.slice(1);
    const hooked = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key, body: { url: `${world.receiver.url}/messaging` } });
    expect(hooked.status, hooked.text).toBe(200);
  }, 60_000);

  const send = async (body: Record<string, unknown>) => {
    const sent = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body });
    expect(sent.status, sent.text).toBe(200);
    return sent.body.data.id as string;
  };
  /** The network's id of a message the gateway sent, once the network took it. */
  const networkIdOf = async (messageId: string) => {
    const sent = await eventually(() => world.api.get(`/v1/messages/status/${messageId}`, { key }), (r) => Boolean(r.body.data?.networkMessageId), 20_000);
    return sent.body.data.networkMessageId as string;
  };
  /** What the phone shows for a message the gateway sent it. */
  const onPhone = async (phone: string, messageId: string, ready: (entry: PhoneMessage) => boolean = () => true) => {
    const networkId = await networkIdOf(messageId);
    return world.network.waitFor(() => world.network.inbox(phone).find((entry) => entry.id === networkId && ready(entry)), 20_000, `message ${networkId} on ${phone}`);
  };
  const hooks = (event: string) =>
    world.receiver.of(event).filter((call) => JSON.parse(call.body).instanceId === instance.id);
  const hookData = (event: string) => hooks(event).map((call) => JSON.parse(call.body).data);
  const waitForHook = (event: string, match: (data: Record<string, any>) => boolean) =>
    eventually(async () => hookData(event).filter(match), (list) => list.length > 0, 20_000).then((list) => list[0]!);
  /** A message a phone sends the instance, as the gateway stored it (its messages.upsert). */
  const received = async (from: string, text: string, mentions?: string[]) => {
    const networkId = await world.network.send(from, own, { text }, mentions ? { mentions } : {});
    const upsert = await waitForHook('messages.upsert', (data) => data.from === from && data.text === text);
    return { networkId, messageId: upsert.messageId as string, upsert };
  };
  const expectSigned = async (event: string, messageId: string) => {
    const deliveries = hooks(event).filter((call) => JSON.parse(call.body).data.messageId === messageId);
    expect(deliveries.length, event).toBeGreaterThan(0);
    for (const delivery of deliveries) expect(await verifyHubSignature(instance.secret, delivery.body, String(delivery.headers['x-hub-signature-256']))).toBe(true);
  };

  it('sends every kind with an API key, and the phone decodes each as that kind', async () => {
    const to = newNetworkPhone().slice(1);
    const friend = newNetworkPhone().slice(1);
    const first = await send({ to, text: `Hi @${friend}, meet us at https://example.com/map`, mentions: [friend] });
    expect(await onPhone(to, first)).toMatchObject({ type: 'text', from: own, text: `Hi @${friend}, meet us at https://example.com/map`, mentions: [friend] });
    const firstId = await networkIdOf(first);

    const reply = await send({ to, text: 'and bring the map', quotedMessageId: first });
    const picture = await send({ to, media: { url: `${world.files.url}/picture.png` }, mediaType: 'image', caption: 'the picture', quotedMessageId: first });
    const invoice = await send({ to, media: { data: b64(PDF), mimetype: 'application/pdf', fileName: 'invoice 11.pdf' }, mediaType: 'document', caption: 'the invoice' });
    const sticker = await send({ to, media: { data: b64(WEBP), mimetype: 'image/webp' }, mediaType: 'sticker' });
    const voice = await send({ to, media: { data: b64(OGG), mimetype: 'audio/ogg' }, mediaType: 'audio', voice: true });
    const song = await send({ to, media: { data: b64(MP3), mimetype: 'audio/mpeg' }, mediaType: 'audio' });
    const place = await send({ to, location: { latitude: -23.5613, longitude: -46.6565, name: 'Office', address: 'Av. Paulista 1000' } });
    const cards = [
      { displayName: 'Ana', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL;type=CELL;waid=5511999990001:+55 11 99999-0001\nEND:VCARD' },
      { displayName: 'Bruno', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Bruno\nTEL;type=CELL;waid=5511999990002:+55 11 99999-0002\nEND:VCARD' },
    ];
    const two = await send({ to, contacts: cards });
    const one = await send({ to, contacts: [cards[0]] });
    const liked = await send({ to, reaction: { messageId: first, emoji: '👍' } });

    expect(await onPhone(to, reply)).toMatchObject({ type: 'text', text: 'and bring the map', quoted: { messageId: firstId } });
    const image = await onPhone(to, picture);
    expect(image).toMatchObject({ type: 'image', caption: 'the picture', mimetype: 'image/png', mediaError: null, quoted: { messageId: firstId } });
    expect(sha256(image.bytes)).toBe(sha256(PNG_1PX));
    const document = await onPhone(to, invoice);
    expect(document).toMatchObject({ type: 'document', caption: 'the invoice', fileName: 'invoice 11.pdf', mimetype: 'application/pdf', mediaError: null });
    expect(sha256(document.bytes)).toBe(sha256(PDF));
    const stuck = await onPhone(to, sticker);
    expect(stuck).toMatchObject({ type: 'sticker', mimetype: 'image/webp', mediaError: null });
    expect(sha256(stuck.bytes)).toBe(sha256(WEBP));
    const note = await onPhone(to, voice);
    expect(note).toMatchObject({ type: 'audio', voice: true, mimetype: 'audio/ogg; codecs=opus', mediaError: null });
    expect(sha256(note.bytes)).toBe(sha256(OGG));
    expect(await onPhone(to, song)).toMatchObject({ type: 'audio', voice: false, mimetype: 'audio/mpeg', mediaError: null });
    expect(await onPhone(to, place)).toMatchObject({
      type: 'location',
      location: { latitude: -23.5613, longitude: -46.6565, name: 'Office', address: 'Av. Paulista 1000' },
    });
    expect(await onPhone(to, two)).toMatchObject({ type: 'contacts', contacts: cards });
    expect(await onPhone(to, one)).toMatchObject({ type: 'contact', contact: cards[0], contacts: [cards[0]] });
    expect(await onPhone(to, liked)).toMatchObject({ type: 'reaction', reaction: { messageId: firstId, emoji: '👍' } });

    // A reaction to what the phone sent names the phone's message; an empty emoji takes it back.
    const theirs = await received(to, 'did you get the invoice?');
    const hearted = await send({ to, reaction: { messageId: theirs.messageId, emoji: '❤️' } });
    expect(await onPhone(to, hearted)).toMatchObject({ type: 'reaction', reaction: { messageId: theirs.networkId, emoji: '❤️' } });
    const takenBack = await send({ to, reaction: { messageId: theirs.messageId, emoji: '' } });
    expect(await onPhone(to, takenBack)).toMatchObject({ type: 'reaction', reaction: { messageId: theirs.networkId, emoji: '' } });
    // A reply to the phone's message quotes it as the phone's.
    const answer = await send({ to, text: 'yes, thanks', quotedMessageId: theirs.messageId });
    expect(await onPhone(to, answer)).toMatchObject({ type: 'text', quoted: { messageId: theirs.networkId, participant: `${to}@s.whatsapp.net` } });

    // Every message went out once, and the webhook told of each as sent with its kind's fields.
    const upserts = await eventually(async () => hookData('messages.upsert').filter((data) => data.fromMe && data.to === to), (list) => list.length === 14, 20_000);
    expect(upserts.find((data) => data.messageId === first)).toMatchObject({ type: 'text', mentions: [friend] });
    expect(upserts.find((data) => data.messageId === place)).toMatchObject({ type: 'location', location: { latitude: -23.5613, longitude: -46.6565 } });
    expect(upserts.find((data) => data.messageId === hearted)).toMatchObject({ type: 'reaction', reaction: { emoji: '❤️', messageId: theirs.messageId } });
    // An uploaded file is shown and served like any other.
    expect(upserts.find((data) => data.messageId === invoice)).toMatchObject({
      type: 'document',
      media: { type: 'document', mimetype: 'application/pdf', fileName: 'invoice 11.pdf', caption: 'the invoice', url: expect.stringMatching(new RegExp(`^/media/${invoice}\\?expires=\\d+&signature=[\\w-]+$`)) },
    });
    const download = await fetch(`${world.gw.url}/v1/messages/${invoice}/media`, { headers: { authorization: `Bearer ${key}` } });
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(PDF));
  }, 90_000); // fourteen messages, five of them files the library encrypts and uploads, each waited for in turn

  it('refuses audio as a voice note unless it is Ogg, with nothing stored', async () => {
    const to = newNetworkPhone().slice(1);
    const before = (await world.api.get('/v1/messages/list?limit=1', { key })).body.data.total;
    const refused = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, {
      key,
      body: { to, media: { data: b64(MP3), mimetype: 'audio/mpeg' }, mediaType: 'audio', voice: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request' });
    expect(refused.body.error.message).toMatch(/^voice: /);
    expect((await world.api.get('/v1/messages/list?limit=1', { key })).body.data.total).toBe(before);
  });

  it('edits and deletes a sent message on the phone, each told once by a signed webhook', async () => {
    const to = newNetworkPhone().slice(1);
    const message = await send({ to, text: 'See you at 5' });
    await onPhone(to, message);

    const edited = await world.api.request('PATCH', `/v1/chat/instances/${instance.id}/messages/${message}`, { key, body: { text: 'See you at 6' } });
    expect(edited.status, edited.text).toBe(200);
    expect(await onPhone(to, message, (entry) => entry.edited)).toMatchObject({ type: 'text', text: 'See you at 6', edited: true, revoked: false });
    const update = await waitForHook('messages.update', (data) => data.messageId === message && data.edited);
    expect(update.edited).toEqual({ text: 'See you at 6', at: expect.any(String) });

    const deleted = await world.api.delete(`/v1/chat/instances/${instance.id}/messages/${message}`, { key });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await onPhone(to, message, (entry) => entry.revoked)).toMatchObject({ revoked: true });
    expect(await waitForHook('messages.delete', (data) => data.messageId === message)).toEqual({ messageId: message, deletedBy: own, forEveryone: true });

    // What the phone sends next arrives after the library's own report of the edit and the delete: neither was told twice.
    await received(to, 'ok, six it is');
    expect(hookData('messages.update').filter((data) => data.messageId === message && data.edited)).toHaveLength(1);
    expect(hookData('messages.delete').filter((data) => data.messageId === message)).toHaveLength(1);
    await expectSigned('messages.update', message);
    await expectSigned('messages.delete', message);
  });

  it('marks a received message read, and shows typing, recording and online to the phone', async () => {
    const from = newNetworkPhone().slice(1);
    const theirs = await received(from, 'are you there?');
    const read = await world.api.post(`/v1/chat/instances/${instance.id}/messages/${theirs.messageId}/read`, { key });
    expect(read.status, read.text).toBe(200);
    const receipt = await world.network.waitFor(() => world.network.receipts(from).find((entry) => entry.messageId === theirs.networkId && entry.type === 'read'), 20_000, 'the read receipt');
    expect(receipt).toMatchObject({ from: own, type: 'read' });

    for (const state of ['composing', 'recording', 'paused'] as const) {
      const told = await world.api.post(`/v1/chat/instances/${instance.id}/chats/${from}/presence`, { key, body: { state } });
      expect(told.status, told.text).toBe(200);
      await world.network.waitFor(() => world.network.chatStates(from).find((entry) => entry.from === own && entry.chat === from && entry.state === state), 20_000, state);
    }
    for (const state of ['available', 'unavailable'] as const) {
      const told = await world.api.post(`/v1/chat/instances/${instance.id}/chats/${from}/presence`, { key, body: { state } });
      expect(told.status, told.text).toBe(200);
      await world.network.waitFor(() => world.network.presenceOf(own).type === state, 20_000, state);
    }
  });

  it('issues its trusted-contact token to a new contact once, not again with every message', async () => {
    const to = newNetworkPhone().slice(1);
    const names = [`${to}@s.whatsapp.net`, `${world.network.lidOf(to)}@lid`];
    const issuedTo = () => world.network.tokensIssued(own).filter((token) => names.includes(token.to));
    const storedTokens = () =>
      world.gw.gateway.infra.db.prisma.engineKey.count({ where: { instanceId: instance.id, type: 'tctoken', id: { in: names } } });
    await onPhone(to, await send({ to, text: 'token 1' }));
    // The issuance follows the first message; the next ones go once its timestamp is stored.
    await world.network.waitFor(() => issuedTo().length > 0, 20_000, 'the token issued');
    await eventually(storedTokens, (count) => count === 1, 20_000);
    for (const text of ['token 2', 'token 3']) await onPhone(to, await send({ to, text }));
    expect(issuedTo()).toHaveLength(1);
    expect(issuedTo()[0]!.t).toBeGreaterThan(Date.now() / 1000 - 600);
  });

  // Both sides set up their session at once, then write on: a send and a decryption each move the
  // same session on, and neither may be lost (docs/architecture.md, patch item 8).
  it('loses nothing when the instance and a new contact write to each other at the same time', async () => {
    const contact = newNetworkPhone().slice(1);
    const pairs = 30;
    const sent = await Promise.all(
      Array.from({ length: pairs }, async (_, n) => {
        const [id] = await Promise.all([send({ to: contact, text: `out ${n}` }), world.network.send(contact, own, { text: `in ${n}` })]);
        return id;
      }),
    );
    const decrypted = await world.network.waitForInbox(contact, pairs, 30_000).catch(() => world.network.inbox(contact));
    expect(decrypted.map((entry) => entry.text).sort()).toEqual(Array.from({ length: pairs }, (_, n) => `out ${n}`).sort());
    await eventually(async () => hookData('messages.upsert').filter((data) => data.from === contact), (list) => list.length === pairs, 20_000);
    for (const id of sent) expect((await world.api.get(`/v1/messages/status/${id}`, { key })).body.data.status).not.toBe('failed');
  });

  it('sends a message again when the phone could not read it (it lost its sessions), and the phone reads the copy', async () => {
    const contact = newNetworkPhone().slice(1);
    await onPhone(contact, await send({ to: contact, text: 'before the reinstall' }));
    world.network.forgetSessions(contact);
    const after = await send({ to: contact, text: 'after the reinstall' });
    expect(await onPhone(contact, after)).toMatchObject({ from: own, text: 'after the reinstall' });
    // The first copy could not be read; the phone's retry receipt brought a second on a new session.
    const networkId = await networkIdOf(after);
    expect(world.network.received().filter((stanza) => stanza.id === networkId && stanza.phone === own)).toHaveLength(2);
    expect(world.network.inbox(contact).filter((entry) => entry.id === networkId)).toHaveLength(1);
  });

  it('answers a retry from storage only with a sent text: never a photo’s caption in its place, never a deleted text', async () => {
    const to = newNetworkPhone().slice(1);
    const text = await send({ to, text: 'kept for a retry' });
    const photo = await send({ to, media: { url: `${world.files.url}/picture.png` }, mediaType: 'image', caption: 'only a caption' });
    const gone = await send({ to, text: 'deleted for everyone' });
    for (const id of [text, photo, gone]) await onPhone(to, id);
    expect((await world.api.delete(`/v1/chat/instances/${instance.id}/messages/${gone}`, { key })).status).toBe(200);
    const inbound = await received(to, 'a reply');
    const stored = sentTextReader(world.gw.gateway.infra.db.prisma);
    expect(await stored(instance.id, await networkIdOf(text))).toBe('kept for a retry');
    expect(await stored(instance.id, await networkIdOf(photo))).toBeNull();
    expect(await stored(instance.id, await networkIdOf(gone))).toBeNull();
    expect(await stored(instance.id, inbound.networkId)).toBeNull();
  });

  it('checks numbers on the network: who has an account, with its LID', async () => {
    const on = newNetworkPhone().slice(1);
    const off = newNetworkPhone().slice(1);
    world.network.setRegistered(off, false);
    const checked = await world.api.post(`/v1/chat/instances/${instance.id}/contacts/check`, { key, body: { phones: [on, off] } });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.data).toEqual([
      { phone: on, exists: true, lid: world.network.lidOf(on) },
      { phone: off, exists: false },
    ]);
  });

  it('turns a phone’s edit into a signed messages.update with edited, not a new message; received mentions arrive as digits', async () => {
    const from = newNetworkPhone().slice(1);
    const friend = newNetworkPhone().slice(1);
    const theirs = await received(from, `lunch with @${own} and @${friend}?`, [own, friend]);
    expect(theirs.upsert).toMatchObject({ type: 'text', from, mentions: [own, friend] });

    await world.network.edit(from, theirs.networkId, own, 'dinner instead?');
    const update = await waitForHook('messages.update', (data) => data.messageId === theirs.messageId && data.edited);
    expect(update.edited).toEqual({ text: 'dinner instead?', at: expect.any(String) });
    await expectSigned('messages.update', theirs.messageId);
    const stored = await world.api.get(`/v1/messages/status/${theirs.messageId}`, { key });
    expect(stored.body.data).toMatchObject({ text: 'dinner instead?', edited: { text: 'dinner instead?' } });

    // The next message from the phone arrives after the edit: the edit itself was stored as no message.
    await received(from, 'or tomorrow');
    expect(hookData('messages.upsert').filter((data) => data.from === from).map((data) => data.text)).toEqual([`lunch with @${own} and @${friend}?`, 'or tomorrow']);
  });
});
