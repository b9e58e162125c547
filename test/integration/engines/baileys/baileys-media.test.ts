import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedSession, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';

/** A kept file's signed link, as every edge (webhooks included) gives it (docs/media.md, "Signed links"). */
const SIGNED_LINK = /^\/media\/[\w-]+\?expires=\d+&signature=[\w-]+$/;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A file of each kind a phone sends, with bytes that are not a multiple of the cipher's block. */
const FILES = {
  image: { mimetype: 'image/jpeg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(50_001)]), caption: 'the receipt' },
  video: { mimetype: 'video/mp4', bytes: randomBytes(200_003), caption: 'unboxing' },
  audio: { mimetype: 'audio/ogg; codecs=opus', bytes: randomBytes(7_777), ptt: true },
  document: { mimetype: 'application/pdf', bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(30_000)]), fileName: 'invoice 2026-11.pdf', caption: 'the invoice' },
  sticker: { mimetype: 'image/webp', bytes: randomBytes(9_999) },
} as const;
type Kind = keyof typeof FILES;

describe.each(MODES)('CHAT-BAILEYS: inbound media, contacts, reactions, replies and LIDs — $name', (mode) => {
  // Kept media (docs/media.md) in both modes: the folder store (PostgreSQL mode gets a folder of its own).
  const world = baileysWorld(mode, { tenants: ['enterprise', 'pro'], env: { MEDIA_STORE: 'folder' } });
  let v1: { id: string; phone: string };
  let session: { id: string; phone: string };

  beforeAll(async () => {
    const { api, tenant, network, receiver } = world;
    v1 = await pairedV1(api, tenant.liveKey, network, `media v1 ${Date.now()}`);
    const hooked = await api.post(`/v1/chat/instances/${v1.id}/webhook`, { key: tenant.liveKey, body: { url: `${receiver.url}/v1` } });
    expect(hooked.status, hooked.text).toBe(200);
    // The v1 instance keeps no media, to see the network's own answers (its 410 once a file expired); the session one keeps all.
    const keepsNone = await api.put(`/v1/chat/instances/${v1.id}`, { key: tenant.liveKey, body: { media: { keep: 'none' } } });
    expect(keepsNone.status, keepsNone.text).toBe(200);
    session = await pairedSession(api, tenant.cookie, network, `media session ${Date.now()}`, undefined, { webhookUrl: `${receiver.url}/session` });
  }, 90_000);

  const hooksOf = (instanceId: string, event: string) =>
    world.receiver
      .of(event)
      .map((call) => JSON.parse(call.body))
      .filter((body) => body.instanceId === instanceId || body.instance?.instanceId === instanceId);
  /** The upsert webhook of one received message, by what it says. */
  const upsertWhere = (instanceId: string, match: (data: any) => boolean) =>
    eventually(async () => hooksOf(instanceId, 'messages.upsert').filter((hook) => match(hook.data)), (list) => list.length === 1, 20_000).then((list) => list[0]);
  const download = (messageId: string, key = world.tenant.liveKey) => fetch(`${world.gw.url}/v1/messages/${messageId}/media`, { headers: { authorization: `Bearer ${key}` } });

  it.each(Object.keys(FILES) as Kind[])('a %s from a phone: the webhook carries its type, mime type, size, caption and download URL; the download is the exact bytes', async (kind) => {
    const file = FILES[kind];
    const contact = newNetworkPhone().slice(1);
    const networkId = await world.network.send(contact, v1.phone, { [kind]: file } as never, { pushName: 'Ana' });
    const hook = await upsertWhere(v1.id, (data) => data.from === contact);
    expect(hook.data).toEqual({
      messageId: expect.any(String),
      from: contact,
      to: v1.phone.slice(1),
      fromMe: false,
      type: kind,
      text: 'caption' in file ? file.caption : '',
      timestamp: expect.any(String),
      media: {
        type: kind,
        mimetype: file.mimetype,
        size: file.bytes.length,
        caption: 'caption' in file ? file.caption : null,
        fileName: 'fileName' in file ? file.fileName : null,
        url: expect.stringMatching(new RegExp(`^/media/${hook.data.messageId}\\?expires=\\d+&signature=[\\w-]+$`)),
        expiresAt: expect.any(String),
        stored: expect.any(Boolean),
      },
    });
    const stored = await world.api.get(`/v1/messages/status/${hook.data.messageId}`, { key: world.tenant.liveKey });
    expect(stored.body.data).toMatchObject({ direction: 'in', type: kind, networkMessageId: networkId, media: { ...hook.data.media, url: expect.any(String), expiresAt: expect.any(String) } });
    expect(stored.body.data.fromLid).toBeUndefined();

    const answer = await download(hook.data.messageId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(file.mimetype);
    expect(answer.headers.get('content-length')).toBe(String(file.bytes.length));
    const disposition = answer.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename=/);
    if ('fileName' in file) expect(disposition).toContain('invoice 2026-11.pdf');
    else expect(disposition).toContain(`${kind}-${hook.data.messageId}.`);
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(file.bytes));
  });

  it('media in the session envelope: the media block inside message, with the type of the network', async () => {
    const contact = newNetworkPhone().slice(1);
    await world.network.send(contact, session.phone, { image: FILES.image });
    const hook = await upsertWhere(session.id, (data) => data.key.remoteJid === `${contact}@s.whatsapp.net`);
    expect(hook.data).toMatchObject({
      key: { fromMe: false },
      messageType: 'imageMessage',
      message: { conversation: 'the receipt', media: { type: 'image', mimetype: 'image/jpeg', size: FILES.image.bytes.length, caption: 'the receipt', url: expect.stringMatching(new RegExp(`^/media/${hook.data.key.id}\\?expires=\\d+&signature=[\\w-]+$`)) } },
    });
    const answer = await download(hook.data.key.id);
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(FILES.image.bytes));
  });

  it('kept media: messages.update (session envelope) says stored, and the file still downloads once the network lets it expire', async () => {
    const contact = newNetworkPhone().slice(1);
    const file = FILES.document;
    const networkId = await world.network.send(contact, session.phone, { document: file });
    const hook = await upsertWhere(session.id, (data) => data.key.remoteJid === `${contact}@s.whatsapp.net`);
    const messageId = hook.data.key.id;
    const [kept] = await eventually(async () => hooksOf(session.id, 'messages.update').filter((body) => body.data.key.id === messageId && body.data.media), (list) => list.length > 0, 20_000);
    expect(kept.data).toEqual({ key: { id: messageId }, media: { stored: true, sha256: sha256(file.bytes), size: file.bytes.length, url: expect.stringMatching(SIGNED_LINK), expiresAt: expect.any(String) } });
    world.network.expireMedia(contact, networkId);
    const answer = await download(messageId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(file.mimetype);
    expect(answer.headers.get('content-disposition')).toContain('invoice 2026-11.pdf');
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(file.bytes));
  });

  it("refuses another tenant's key (403), a message without media (404), an unknown id (404) and no key (401); expired media is 410", async () => {
    const contact = newNetworkPhone().slice(1);
    const imageId = await world.network.send(contact, v1.phone, { image: { mimetype: 'image/png', bytes: randomBytes(1000) } });
    await world.network.send(contact, v1.phone, { text: 'just words' });
    const image = await upsertWhere(v1.id, (data) => data.from === contact && data.type === 'image');
    const text = await upsertWhere(v1.id, (data) => data.from === contact && data.type === 'text');

    const foreign = await world.api.get(`/v1/messages/${image.data.messageId}/media`, { key: world.tenants[1]!.liveKey });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(failure('forbidden'));
    const none = await world.api.get(`/v1/messages/${text.data.messageId}/media`, { key: world.tenant.liveKey });
    expect(none.status).toBe(404);
    expect(none.body).toEqual(failure('not_found'));
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const unknown = await world.api.get(`/v1/messages/${id}/media`, { key: world.tenant.liveKey });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(failure('not_found'));
    }
    const anonymous = await world.api.get(`/v1/messages/${image.data.messageId}/media`);
    expect(anonymous.status).toBe(401);

    world.network.expireMedia(contact, imageId);
    const gone = await world.api.get(`/v1/messages/${image.data.messageId}/media`, { key: world.tenant.liveKey });
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual(failure('media_expired'));
  });

  it('a contact card, a reaction to a sent message and a reply quoting it arrive with their fields, in the webhook and the record', async () => {
    const contact = newNetworkPhone().slice(1);
    const sent = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: contact, text: 'Your order shipped' } });
    expect(sent.status, sent.text).toBe(200);
    const [delivered] = await world.network.waitForInbox(contact, 1);
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Bruno Lima\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD';
    await world.network.send(contact, v1.phone, { contact: { displayName: 'Bruno Lima', vcard } });
    await world.network.send(contact, v1.phone, { reaction: { messageId: delivered!.id, emoji: '👍' } });
    const replyId = await world.network.send(contact, v1.phone, { text: 'Thanks!' }, { quoted: delivered!.id });

    const card = await upsertWhere(v1.id, (data) => data.from === contact && data.type === 'contact');
    expect(card.data).toMatchObject({ type: 'contact', contacts: [{ displayName: 'Bruno Lima', vcard }] });
    const reaction = await upsertWhere(v1.id, (data) => data.from === contact && data.type === 'reaction');
    expect(reaction.data).toMatchObject({ type: 'reaction', reaction: { emoji: '👍', messageId: sent.body.data.id, networkMessageId: delivered!.id } });
    const reply = await upsertWhere(v1.id, (data) => data.from === contact && data.type === 'text');
    expect(reply.data).toMatchObject({ text: 'Thanks!', quoted: { messageId: sent.body.data.id, networkMessageId: delivered!.id } });

    const stored = await world.api.get(`/v1/messages/status/${reply.data.messageId}`, { key: world.tenant.liveKey });
    expect(stored.body.data).toMatchObject({ networkMessageId: replyId, quoted: { messageId: sent.body.data.id, networkMessageId: delivered!.id } });
    for (const absent of ['contacts', 'reaction', 'media']) expect(stored.body.data).not.toHaveProperty(absent);
    const storedCard = await world.api.get(`/v1/messages/status/${card.data.messageId}`, { key: world.tenant.liveKey });
    expect(storedCard.body.data.contacts).toEqual([{ displayName: 'Bruno Lima', vcard }]);
  });

  it('a LID-only sender arrives as from null with its LID; after the phone shares the mapping, the next message carries the phone', async () => {
    const contact = newNetworkPhone().slice(1);
    const lid = world.network.lidOf(contact);
    await world.network.send(contact, v1.phone, { text: 'from a LID' }, { asLid: true });
    const hidden = await upsertWhere(v1.id, (data) => data.text === 'from a LID' && data.fromLid === lid);
    expect(hidden.data.from).toBeNull();
    const stored = await world.api.get(`/v1/messages/status/${hidden.data.messageId}`, { key: world.tenant.liveKey });
    expect(stored.body.data).toMatchObject({ from: null, fromLid: lid });

    await world.network.shareLidMapping(v1.phone, [contact]);
    // The mapping reaches the device as a message of its own phone: it is known once the next LID message resolves.
    await eventually(
      async () => {
        const text = `mapped ${Date.now()}`;
        await world.network.send(contact, v1.phone, { text }, { asLid: true });
        return upsertWhere(v1.id, (data) => data.text === text);
      },
      (hook) => hook.data.from === contact,
      30_000,
    );
    const mapped = hooksOf(v1.id, 'messages.upsert').filter((hook) => String(hook.data.text).startsWith('mapped ') && hook.data.from === contact);
    expect(mapped.at(-1)!.data.fromLid).toBeUndefined();
  });
});
