import { createHash } from 'node:crypto';
import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { oggOpus, PNG_1PX } from '../../kit/files.js';
import { connectedInstance, sandboxWorld } from '../../kit/worlds/sandbox.js';

const VCARD = (name: string, phone: string) => `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL;type=CELL;waid=${phone}:+${phone}\nEND:VCARD`;
const OGG = oggOpus();
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4, 0), Buffer.from('WEBPVP8 '), Buffer.alloc(40, 3)]);
const PDF = Buffer.from('%PDF-1.4\n% a document\n%%EOF\n');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const digitsOf = (phone: string) => phone.slice(1);

describe.each(MODES)('Messaging surface on the sandbox: every kind and action through a named instance — $name', (mode) => {
  const world = sandboxWorld(mode, { files: { '/picture.png': { type: 'image/png', body: PNG_1PX } } });
  /** The instance every test sends through (webhooks to the receiver), and a second one of the same tenant. */
  let a: { id: string; phone: string; secret: string };
  let b: { id: string; phone: string; secret: string };


  const connected = (name: string) => connectedInstance(world, name, { webhookUrl: `${world.receiver.url}/${name}` });
  const prisma = () => world.gw.gateway.infra.db.prisma;
  const storedCount = () => prisma().message.count({ where: { tenantId: world.tenant.tenantId } });
  const send = (instanceId: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    world.api.post(`/v1/chat/instances/${instanceId}/messages`, { key: options.key ?? world.tenant.liveKey, body, headers: options.headers });
  const sent = async (instanceId: string, body: unknown) => {
    const answer = await send(instanceId, body);
    expect(answer.status, answer.text).toBe(200);
    const id = answer.body.data.id as string;
    await eventually(() => world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey }), (r) => ['sent', 'delivered', 'read'].includes(r.body.data?.status));
    return id;
  };
  const received = async (phone: string, count: number) => (await eventually(() => phoneInbox(world.api, phone), (r) => r.body.data.length >= count)).body.data as Array<Record<string, any>>;
  /** A phone's message to instance `a`: the gateway's id of it. */
  const fromPhone = async (phone: string, text: string) => {
    const answer = await world.api.post('/sandbox/messages', { body: { from: phone, to: a.phone, text } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.messageId as string;
  };
  /** Webhook deliveries of `event` for one message, each checked to be signed with `secret`. */
  const signedHooks = async (event: string, messageId: string, secret: string, accept: (bodies: any[]) => boolean) => {
    const deliveries = await eventually(
      async () => world.receiver.of(event).filter((call) => JSON.parse(call.body).data?.messageId === messageId),
      (list) => accept(list.map((call) => JSON.parse(call.body))),
    );
    for (const delivery of deliveries) expect(await verifyHubSignature(secret, delivery.body, String(delivery.headers['x-hub-signature-256']))).toBe(true);
    return deliveries.map((call) => JSON.parse(call.body));
  };

  beforeAll(async () => {
    a = await connected(`surface-a-${Date.now()}`);
    b = await connected(`surface-b-${Date.now()}`);
  }, 60_000);

  it('lists each engine with its capabilities (GET /v1/integrations, key or cookie)', async () => {
    for (const auth of [{ key: world.tenant.liveKey }, { cookie: world.tenant.cookie }]) {
      const answer = await world.api.get('/v1/integrations', auth);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({
        success: true,
        data: [
          {
            integration: 'CHAT-SANDBOX',
            capabilities: ['text', 'media', 'voice', 'sticker', 'location', 'contacts', 'reaction', 'reply', 'mentions', 'edit', 'delete', 'read', 'typing', 'number_check', 'groups', 'group_admin', 'poll', 'history', 'chat_state', 'block', 'profile', 'calls', 'always_online', 'own_profile', 'privacy'],
          },
        ],
      });
    }
    expect((await world.api.get('/v1/integrations')).status).toBe(401);
  });

  it('carries every kind to the receiving phone with its fields, decoded on the phone side', async () => {
    const peer = newPhone();
    const named = digitsOf(newPhone());
    const question = await fromPhone(peer, 'Where are you?');
    const text = await sent(a.id, { to: digitsOf(peer), text: `Hello @${named}`, mentions: [named] });
    const image = await sent(a.id, { to: digitsOf(peer), media: { url: `${world.files.url}/picture.png` }, mediaType: 'image', caption: 'A dot' });
    const voice = await sent(a.id, { to: digitsOf(peer), media: { data: OGG.toString('base64'), mimetype: 'audio/ogg' }, mediaType: 'audio', voice: true });
    const sticker = await sent(a.id, { to: digitsOf(peer), media: { data: WEBP.toString('base64'), mimetype: 'image/webp' }, mediaType: 'sticker' });
    const document = await sent(a.id, { to: digitsOf(peer), media: { data: PDF.toString('base64'), mimetype: 'application/pdf', fileName: 'terms.pdf' }, mediaType: 'document', caption: 'Terms' });
    const location = await sent(a.id, { to: digitsOf(peer), location: { latitude: -23.55, longitude: -46.63, name: 'Office', address: 'Av. Paulista 1000' } });
    const card = VCARD('Ana', named);
    const contacts = await sent(a.id, { to: digitsOf(peer), contacts: [{ displayName: 'Ana', vcard: card }] });
    const reply = await sent(a.id, { to: digitsOf(peer), text: 'At the office', quotedMessageId: question });
    const replyToOurs = await sent(a.id, { to: digitsOf(peer), location: { latitude: 1.5, longitude: 2.5 }, quotedMessageId: text });
    const reaction = await sent(a.id, { to: digitsOf(peer), reaction: { messageId: question, emoji: '👍' } });
    const takenBack = await sent(a.id, { to: digitsOf(peer), reaction: { messageId: question, emoji: '' } });

    const list = await received(peer, 11);
    const entry = (id: string) => {
      const found = list.filter((m) => m.id === id);
      expect(found, id).toHaveLength(1);
      return found[0]!;
    };
    const from = digitsOf(a.phone);
    expect(entry(text)).toEqual({ id: text, from, type: 'text', text: `Hello @${named}`, mentions: [named], receivedAt: expect.any(String) });
    expect(entry(image)).toEqual({
      id: image, from, type: 'image', text: null, caption: 'A dot', mediaUrl: `${world.files.url}/picture.png`,
      media: { mimetype: 'image/png', fileName: 'picture.png', voice: false }, receivedAt: expect.any(String),
    });
    expect(entry(voice)).toMatchObject({ type: 'audio', media: { mimetype: 'audio/ogg', voice: true, size: OGG.length, sha256: sha256(OGG) } });
    expect(entry(voice)).not.toHaveProperty('mediaUrl');
    expect(entry(sticker)).toMatchObject({ type: 'sticker', media: { mimetype: 'image/webp', voice: false, size: WEBP.length, sha256: sha256(WEBP) } });
    expect(entry(document)).toMatchObject({ type: 'document', caption: 'Terms', media: { mimetype: 'application/pdf', fileName: 'terms.pdf', size: PDF.length, sha256: sha256(PDF) } });
    expect(entry(location)).toMatchObject({ type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Office', address: 'Av. Paulista 1000' } });
    expect(entry(contacts)).toMatchObject({ type: 'contact', contacts: [{ displayName: 'Ana', vcard: card }] });
    expect(entry(reply)).toMatchObject({ type: 'text', text: 'At the office', quoted: { messageId: question, text: 'Where are you?' } });
    expect(entry(replyToOurs)).toMatchObject({ type: 'location', quoted: { messageId: text, text: `Hello @${named}` } });
    expect(entry(reaction)).toMatchObject({ type: 'reaction', reaction: { messageId: question, emoji: '👍' } });
    expect(entry(takenBack)).toMatchObject({ type: 'reaction', reaction: { messageId: question, emoji: '' } });
    // The record and messages.upsert carry the same fields.
    const upserts = await signedHooks('messages.upsert', reaction, a.secret, (list) => list.length >= 1);
    expect(upserts[0].data).toMatchObject({ type: 'reaction', fromMe: true, reaction: { emoji: '👍', messageId: question } });
    const located = await signedHooks('messages.upsert', location, a.secret, (list) => list.length >= 1);
    expect(located[0].data).toMatchObject({ type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Office' } });
  });

  it('edits and deletes for everyone on the phone, marks read, tells presence, checks numbers; edits and deletes arrive signed', async () => {
    const peer = newPhone();
    const question = await fromPhone(peer, 'Is it open?');
    const text = await sent(a.id, { to: digitsOf(peer), text: 'Yes, until 6' });
    const pin = await sent(a.id, { to: digitsOf(peer), location: { latitude: 3, longitude: 4 } });

    const edit = await world.api.request('PATCH', `/v1/chat/instances/${a.id}/messages/${text}`, { key: world.tenant.liveKey, body: { text: 'Yes, until 7' } });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data).toMatchObject({ id: text, text: 'Yes, until 7', edited: { text: 'Yes, until 7', at: expect.any(String) } });
    const deleted = await world.api.delete(`/v1/chat/instances/${a.id}/messages/${pin}`, { key: world.tenant.liveKey });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: expect.any(String) });

    const list = await eventually(() => phoneInbox(world.api, peer), (r) => r.body.data.some((m: any) => m.edited) && r.body.data.some((m: any) => m.deleted));
    const byId = new Map(list.body.data.map((m: any) => [m.id, m]));
    expect(byId.get(text)).toMatchObject({ text: 'Yes, until 6', edited: { text: 'Yes, until 7', at: expect.any(String) } });
    expect(byId.get(text)).not.toHaveProperty('deleted');
    expect(byId.get(pin)).toMatchObject({ type: 'location', deleted: { at: expect.any(String) } });
    const edits = await signedHooks('messages.update', text, a.secret, (bodies) => bodies.some((body) => body.data.edited));
    expect(edits.find((body) => body.data.edited).data).toEqual({ messageId: text, edited: { text: 'Yes, until 7', at: expect.any(String) } });
    const deletes = await signedHooks('messages.delete', pin, a.secret, (bodies) => bodies.length === 1);
    expect(deletes[0].data).toMatchObject({ messageId: pin, forEveryone: true });

    const read = await world.api.post(`/v1/chat/instances/${a.id}/messages/${question}/read`, { key: world.tenant.liveKey });
    expect(read.status, read.text).toBe(200);
    const reads = await world.api.get(`/sandbox/phones/${digitsOf(peer)}/reads`);
    expect(reads.body).toEqual({ success: true, data: [{ messageId: question, from: digitsOf(a.phone), at: expect.any(String) }] });

    for (const state of ['composing', 'paused', 'available']) {
      const told = await world.api.post(`/v1/chat/instances/${a.id}/chats/${digitsOf(peer)}/presence`, { key: world.tenant.liveKey, body: { state } });
      expect(told.status, told.text).toBe(200);
    }
    const presence = await world.api.get(`/sandbox/phones/${digitsOf(peer)}/presence`);
    expect(presence.body.data.map((p: any) => [p.from, p.state])).toEqual([
      [digitsOf(a.phone), 'composing'],
      [digitsOf(a.phone), 'paused'],
      [digitsOf(a.phone), 'available'],
    ]);

    // A linked phone and a phone the instance has been writing to exist; a number nothing reached does not.
    const stranger = newPhone();
    const check = await world.api.post(`/v1/chat/instances/${a.id}/contacts/check`, { key: world.tenant.liveKey, body: { phones: [digitsOf(b.phone), digitsOf(peer), digitsOf(stranger), digitsOf(a.phone)] } });
    expect(check.status, check.text).toBe(200);
    expect(check.body.data).toEqual([
      { phone: digitsOf(b.phone), exists: true },
      { phone: digitsOf(peer), exists: true },
      { phone: digitsOf(stranger), exists: false },
      { phone: digitsOf(a.phone), exists: true },
    ]);
  });

  it("turns a phone's edit of a message it sent into messages.update with edited, signed; the record keeps the latest text", async () => {
    const peer = newPhone();
    const question = await fromPhone(peer, 'Open on Sunday?');
    const edit = await world.api.post('/sandbox/messages', { body: { from: digitsOf(peer), to: a.phone, type: 'edit', edit: { messageId: question, text: 'Open on Saturday?' } } });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data).toEqual({ messageId: question, edited: true });
    const hooks = await signedHooks('messages.update', question, a.secret, (bodies) => bodies.some((body) => body.data.edited));
    expect(hooks.find((body) => body.data.edited).data).toEqual({ messageId: question, edited: { text: 'Open on Saturday?', at: expect.any(String) } });
    const row = await prisma().message.findUnique({ where: { id: question } });
    expect(row).toMatchObject({ text: 'Open on Saturday?', editedAt: expect.any(Date) });
    // Only the phone that sent it edits it, and only through the instance it went to.
    const other = newPhone();
    const refused = await world.api.post('/sandbox/messages', { body: { from: digitsOf(other), to: a.phone, type: 'edit', edit: { messageId: question, text: 'x' } } });
    expect(refused.status).toBe(404);
    const bad = await world.api.post('/sandbox/messages', { body: { from: digitsOf(peer), to: a.phone, type: 'edit' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/edit/);
  });

  it('a received message that names phones arrives with its mentions, in the record and in messages.upsert', async () => {
    const peer = newPhone();
    const named = digitsOf(a.phone);
    const answer = await world.api.post('/sandbox/messages', { body: { from: digitsOf(peer), to: a.phone, text: `Hey @${named}`, mentions: [named] } });
    expect(answer.status, answer.text).toBe(200);
    const id = answer.body.data.messageId as string;
    const upserts = await signedHooks('messages.upsert', id, a.secret, (bodies) => bodies.length === 1);
    expect(upserts[0].data).toMatchObject({ messageId: id, fromMe: false, text: `Hey @${named}`, mentions: [named] });
    expect(await prisma().message.findUnique({ where: { id } })).toMatchObject({ mentions: [named] });
  });

  it('refuses what the network would not take: an edit after 15 minutes, an edit or delete of a received message, a reaction to another instance\'s message', async () => {
    const peer = newPhone();
    const question = await fromPhone(peer, 'Hi?');
    const text = await sent(a.id, { to: digitsOf(peer), text: 'Old news' });
    await prisma().message.update({ where: { id: text }, data: { sentAt: new Date(Date.now() - 16 * 60_000) } });
    const late = await world.api.request('PATCH', `/v1/chat/instances/${a.id}/messages/${text}`, { key: world.tenant.liveKey, body: { text: 'New news' } });
    expect(late.status).toBe(409);
    expect(late.body).toEqual(failure('edit_window_closed'));
    const ofTheirs = await world.api.request('PATCH', `/v1/chat/instances/${a.id}/messages/${question}`, { key: world.tenant.liveKey, body: { text: 'mine now' } });
    expect(ofTheirs.status).toBe(409);
    expect(ofTheirs.body).toEqual(failure('message_not_yours'));
    const deleteTheirs = await world.api.delete(`/v1/chat/instances/${a.id}/messages/${question}`, { key: world.tenant.liveKey });
    expect(deleteTheirs.status).toBe(409);
    // Nothing reached the phone: no edit, no delete.
    const list = (await phoneInbox(world.api, peer)).body.data;
    expect(list.find((m: any) => m.id === text)).not.toHaveProperty('edited');

    const onB = await sent(b.id, { to: digitsOf(peer), text: 'From B' });
    const before = await storedCount();
    const reaction = await send(a.id, { to: digitsOf(peer), reaction: { messageId: onB, emoji: '❤️' } });
    expect(reaction.status, reaction.text).toBe(404);
    expect(reaction.body).toEqual(failure('not_found'));
    const readOfB = await world.api.post(`/v1/chat/instances/${a.id}/messages/${onB}/read`, { key: world.tenant.liveKey });
    expect(readOfB.status).toBe(404);
    expect(await storedCount()).toBe(before);
  });

  it('a second delete for everyone answers 200 and changes nothing (the network is not asked again, one messages.delete); an edit after it is 409 message_deleted', async () => {
    const peer = newPhone();
    const text = await sent(a.id, { to: digitsOf(peer), text: 'Sent by mistake' });
    const networkId = (await prisma().message.findUniqueOrThrow({ where: { id: text } })).networkMessageId!;
    const asked = () => prisma().sandboxSignal.count({ where: { kind: 'delete', networkMessageId: networkId } });
    const remove = () => world.api.delete(`/v1/chat/instances/${a.id}/messages/${text}`, { key: world.tenant.liveKey });

    const first = await remove();
    expect(first.status, first.text).toBe(200);
    expect(await asked()).toBe(1);
    const again = await remove();
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await asked()).toBe(1);
    const { deletedAt } = await prisma().message.findUniqueOrThrow({ where: { id: text } });
    expect(deletedAt).toEqual(expect.any(Date));
    // The record shows when, as it shows an edit; a message not deleted has no `deleted`.
    const record = await world.api.get(`/v1/messages/status/${text}`, { key: world.tenant.liveKey });
    expect(record.body.data.deleted).toEqual({ at: deletedAt!.toISOString() });
    const kept = await sent(a.id, { to: digitsOf(peer), text: 'Kept' });
    expect((await world.api.get(`/v1/messages/status/${kept}`, { key: world.tenant.liveKey })).body.data).not.toHaveProperty('deleted');

    const edit = await world.api.request('PATCH', `/v1/chat/instances/${a.id}/messages/${text}`, { key: world.tenant.liveKey, body: { text: 'Sent on purpose' } });
    expect(edit.status).toBe(409);
    expect(edit.body).toEqual(failure('message_deleted'));
    expect(await prisma().message.findUnique({ where: { id: text } })).toMatchObject({ text: 'Sent by mistake', editedAt: null });

    // The one delete's event has gone out; a later message's delete is delivered after it, so by then a second one would show.
    const later = await sent(a.id, { to: digitsOf(peer), text: 'marker' });
    expect((await remove()).status).toBe(200);
    expect((await world.api.delete(`/v1/chat/instances/${a.id}/messages/${later}`, { key: world.tenant.liveKey })).status).toBe(200);
    await signedHooks('messages.delete', later, a.secret, (bodies) => bodies.length === 1);
    const deletes = await signedHooks('messages.delete', text, a.secret, (bodies) => bodies.length >= 1);
    expect(deletes.map((body) => body.data)).toEqual([{ messageId: text, deletedBy: digitsOf(a.phone), forEveryone: true }]);
  });

  it("a delete for everyone from the other side counts only from the message's author: a peer deleting ours, or another phone's, changes nothing", async () => {
    const peer = newPhone();
    const other = newPhone();
    const ours = await sent(a.id, { to: digitsOf(peer), text: 'Our words' });
    const theirs = await fromPhone(peer, 'Their words');
    const deleteOnNetwork = (messageId: string, by: string) => world.api.post(`/sandbox/messages/${messageId}/delete`, { body: { forEveryone: true, deletedBy: digitsOf(by) } });

    // The network reports each before answering: by the 200 the gateway has decided.
    expect((await deleteOnNetwork(ours, peer)).status).toBe(200);
    expect((await deleteOnNetwork(theirs, other)).status).toBe(200);
    expect(await prisma().message.findMany({ where: { id: { in: [ours, theirs] } }, select: { deletedAt: true } })).toEqual([{ deletedAt: null }, { deletedAt: null }]);
    // Ours is still ours to edit.
    const edit = await world.api.request('PATCH', `/v1/chat/instances/${a.id}/messages/${ours}`, { key: world.tenant.liveKey, body: { text: 'Our better words' } });
    expect(edit.status, edit.text).toBe(200);

    // Each author's own delete is recorded, and told once, naming the author.
    expect((await deleteOnNetwork(theirs, peer)).status).toBe(200);
    expect((await world.api.delete(`/v1/chat/instances/${a.id}/messages/${ours}`, { key: world.tenant.liveKey })).status).toBe(200);
    const forTheirs = await signedHooks('messages.delete', theirs, a.secret, (bodies) => bodies.length >= 1);
    const forOurs = await signedHooks('messages.delete', ours, a.secret, (bodies) => bodies.length >= 1);
    expect(forTheirs.map((body) => body.data)).toEqual([{ messageId: theirs, deletedBy: digitsOf(peer), forEveryone: true }]);
    expect(forOurs.map((body) => body.data)).toEqual([{ messageId: ours, deletedBy: digitsOf(a.phone), forEveryone: true }]);
    expect(await prisma().message.count({ where: { id: { in: [ours, theirs] }, deletedAt: { not: null } } })).toBe(2);
  });

  it('refuses bad input for every new body with a 400 naming the field, storing nothing', async () => {
    const peer = digitsOf(newPhone());
    const otherChat = await sent(a.id, { to: digitsOf(newPhone()), text: 'elsewhere' });
    const before = await storedCount();
    const cases: Array<[unknown, RegExp]> = [
      [{ to: 'abc', text: 'x' }, /to/],
      [{ to: '12345@g.us.evil', text: 'x' }, /to/],
      [{ to: peer, text: 'x', location: { latitude: 1, longitude: 2 } }, /location/],
      [{ to: peer, sticker: { url: 'https://example.com/a.webp' } }, /sticker/],
      [{ to: peer }, /text/],
      [{ to: peer, poll: { name: 'Lunch?', options: Array.from({ length: 13 }, (_, n) => `option ${n}`) } }, /poll\.options/],
      [{ to: peer, contacts: [{ displayName: 'Big', vcard: `BEGIN:VCARD\nVERSION:3.0\nNOTE:${'x'.repeat(64 * 1024)}\nEND:VCARD` }] }, /contacts\.0\.vcard/],
      [{ to: peer, text: 'x', quotedMessageId: otherChat }, /quotedMessageId/],
      [{ to: peer, media: { url: `${world.files.url}/picture.png` } }, /mediaType/],
      [{ to: peer, text: 'hi', mentions: ['5511999990001'] }, /mentions\.0/],
      [{ to: peer, location: { latitude: 91, longitude: 0 } }, /location\.latitude/],
      [{ to: peer, reaction: { messageId: 'not-an-id', emoji: '👍' } }, /reaction\.messageId/],
      [{ to: peer, media: { data: '!!!', mimetype: 'image/png' }, mediaType: 'image' }, /media/],
      // A URL that cannot be fetched is named as the request wrote it.
      [{ to: peer, media: { url: `${world.files.url}/missing.png` }, mediaType: 'image' }, /^media\.url: answered HTTP 404/],
    ];
    for (const [body, field] of cases) {
      const refused = await send(a.id, body);
      expect(refused.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(refused.body).toEqual(failure('invalid_request'));
      expect(refused.body.error.message).toMatch(field);
    }
    const actions: Array<[string, string, unknown, RegExp]> = [
      ['PATCH', `/v1/chat/instances/${a.id}/messages/${otherChat}`, { text: '' }, /text/],
      ['POST', `/v1/chat/instances/${a.id}/chats/${peer}/presence`, { state: 'dancing' }, /state/],
      ['POST', `/v1/chat/instances/${a.id}/chats/not-a-chat/presence`, { state: 'composing' }, /chat/],
      ['POST', `/v1/chat/instances/${a.id}/contacts/check`, { phones: Array.from({ length: 51 }, (_, n) => `55119${String(n).padStart(8, '0')}`) }, /phones/],
      ['POST', `/v1/chat/instances/${a.id}/contacts/check`, { phones: ['12'] }, /phones\.0/],
    ];
    for (const [method, path, body, field] of actions) {
      const refused = await world.api.request(method, path, { key: world.tenant.liveKey, body });
      expect(refused.status, `${method} ${path}`).toBe(400);
      expect(refused.body.error.message).toMatch(field);
    }
    const sendMedia = await world.api.post(`/chat/instances/${a.id}/send-media`, { cookie: world.tenant.cookie, body: { to: peer, mediaUrl: `${world.files.url}/missing.png`, mediaType: 'image' } });
    expect(sendMedia.status, sendMedia.text).toBe(400);
    expect(sendMedia.body.error.message).toMatch(/^mediaUrl: answered HTTP 404/);
    for (const path of ['presence', 'reads', 'messages']) {
      const refused = await world.api.get(`/sandbox/phones/not-a-phone/${path}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(failure('invalid_request'));
    }
    expect(await storedCount()).toBe(before);
  });

  it('refuses a kind the engine lacks with 422 not_supported naming the integration and capability, storing nothing', async () => {
    const before = await storedCount();
    const template = await send(a.id, { to: digitsOf(newPhone()), template: { name: 'order_update', language: 'en' } });
    expect(template.status, template.text).toBe(422);
    expect(template.body).toEqual(failure('not_supported'));
    expect(template.body.error.message).toMatch(/CHAT-SANDBOX/);
    expect(template.body.error.message).toMatch(/template/);
    expect(await storedCount()).toBe(before);
  });

  it('replays an Idempotency-Key, prefixes test keys\' text and captions, sends through a named instance on /v1/messages/send, and takes the cookie', async () => {
    const peer = newPhone();
    const body = { to: digitsOf(peer), text: 'Once only' };
    const key = `replay-${Date.now()}`;
    const before = await storedCount();
    const one = await send(a.id, body, { headers: { 'Idempotency-Key': key } });
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toEqual({ id: expect.any(String), status: 'queued', timestamp: expect.any(String), mode: 'production' });
    const two = await send(a.id, body, { headers: { 'Idempotency-Key': key } });
    expect(two.status).toBe(200);
    expect(two.body.data).toEqual(one.body.data);
    const conflict = await send(a.id, { ...body, text: 'Something else' }, { headers: { 'Idempotency-Key': key } });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual(failure('idempotency_conflict'));
    expect(await storedCount()).toBe(before + 1);

    const test = await send(a.id, { to: digitsOf(peer), text: 'Trying' }, { key: world.tenant.testKey });
    expect(test.status, test.text).toBe(200);
    expect(test.body.data.mode).toBe('test');
    const testMedia = await send(a.id, { to: digitsOf(peer), media: { url: `${world.files.url}/picture.png` }, mediaType: 'image', caption: 'Shot' }, { key: world.tenant.testKey });
    expect(testMedia.status, testMedia.text).toBe(200);

    const named = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: digitsOf(peer), text: 'Through B', instanceId: b.id } });
    expect(named.status, named.text).toBe(200);

    const byCookie = await world.api.post(`/chat/instances/${a.id}/messages`, { cookie: world.tenant.cookie, body: { to: digitsOf(peer), location: { latitude: 7, longitude: 8 } } });
    expect(byCookie.status, byCookie.text).toBe(200);
    const typing = await world.api.post(`/chat/instances/${a.id}/chats/${digitsOf(peer)}/presence`, { cookie: world.tenant.cookie, body: { state: 'recording' } });
    expect(typing.status, typing.text).toBe(200);
    expect((await world.api.post(`/chat/instances/${a.id}/messages`, { key: world.tenant.liveKey, body: { to: digitsOf(peer), text: 'x' } })).status).toBe(401);

    const list = await received(peer, 5);
    const entry = (id: string) => list.find((m) => m.id === id)!;
    expect(entry(test.body.data.id)).toMatchObject({ text: '[TEST] Trying', from: digitsOf(a.phone) });
    expect(entry(testMedia.body.data.id)).toMatchObject({ caption: '[TEST] Shot' });
    expect(entry(named.body.data.id)).toMatchObject({ text: 'Through B', from: digitsOf(b.phone) });
    expect(entry(byCookie.body.data.id)).toMatchObject({ type: 'location', location: { latitude: 7, longitude: 8 }, from: digitsOf(a.phone) });
    expect(list.filter((m) => m.text === 'Once only')).toHaveLength(1);
    const presence = await world.api.get(`/sandbox/phones/${digitsOf(peer)}/presence`);
    expect(presence.body.data).toEqual([{ from: digitsOf(a.phone), state: 'recording', at: expect.any(String) }]);
  });
});
