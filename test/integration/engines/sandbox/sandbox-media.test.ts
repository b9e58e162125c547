import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance, eventually, newPhone } from '../../../factories/sandbox.js';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { PNG_1PX } from '../../../kit/files.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20_000)]);
const PNG = Buffer.concat([PNG_1PX, randomBytes(3000)]);

describe.each(MODES)('Sandbox: media, contacts, reactions and replies from its phones — $name', (mode) => {
  const world = sandboxWorld(mode, {
    env: { PUBLIC_URL: 'https://gateway.example.com/' },
    tenants: ['enterprise', 'pro'],
    files: { '/picture.png': { type: 'image/png', body: PNG } },
  });
  let instance: { id: string; phone: string };

  beforeAll(async () => {
    instance = await connectedInstance(world, `sandbox media ${Date.now()}`);
    // Kept media is served after the network's copy expires (sandbox-kept-media.test.ts): this instance keeps none, to see the network's own answers.
    const keepsNone = await world.api.put(`/v1/chat/instances/${instance.id}`, { key: world.tenant.liveKey, body: { media: { keep: 'none' } } });
    expect(keepsNone.status, keepsNone.text).toBe(200);
    const hooked = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: world.tenant.liveKey, body: { url: `${world.receiver.url}/v1` } });
    expect(hooked.status, hooked.text).toBe(200);
  }, 60_000);

  const upserts = () => world.receiver.of('messages.upsert').map((call) => JSON.parse(call.body));
  const upsertWhere = (match: (data: any) => boolean) =>
    eventually(async () => upserts().filter((hook) => match(hook.data)), (list) => list.length === 1).then((list) => list[0]);
  const download = (messageId: string, key = world.tenant.liveKey) => fetch(`${world.gw.url}/v1/messages/${messageId}/media`, { headers: { 'x-api-key': key } });
  const phoneSends = (body: Record<string, unknown>) => world.api.post('/sandbox/messages', { body: { to: instance.phone.slice(1), ...body } });

  it('a document a phone sends: the webhook carries the media block with an absolute URL (PUBLIC_URL); the download is its bytes; GraphQL shows it', async () => {
    const from = newPhone().slice(1);
    const sent = await phoneSends({ from, type: 'document', caption: 'the invoice', media: { data: PDF.toString('base64'), mimetype: 'application/pdf', fileName: 'invoice.pdf' } });
    expect(sent.status, sent.text).toBe(200);
    const hook = await upsertWhere((data) => data.from === from);
    const messageId = sent.body.data.messageId;
    expect(hook.data).toMatchObject({
      messageId,
      type: 'document',
      text: 'the invoice',
      media: { type: 'document', mimetype: 'application/pdf', size: PDF.length, caption: 'the invoice', fileName: 'invoice.pdf', url: expect.stringMatching(new RegExp(`^https://gateway\\.example\\.com/media/${messageId}\\?expires=\\d+&signature=[\\w-]+$`)), expiresAt: expect.any(String), stored: false },
    });
    const answer = await download(messageId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-length')).toBe(String(PDF.length));
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="invoice.pdf"');
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PDF));

    const read = await world.api.graphql(`query ($id: ID!) { message(id: $id) { type media { type mimetype size caption fileName url } contacts { displayName } } }`, { id: messageId }, { key: world.tenant.liveKey });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.message).toEqual({
      type: 'document',
      media: { type: 'document', mimetype: 'application/pdf', size: PDF.length, caption: 'the invoice', fileName: 'invoice.pdf', url: expect.stringMatching(new RegExp(`^https://gateway\\.example\\.com/media/${messageId}\\?expires=\\d+&signature=[\\w-]+$`)) },
      contacts: null,
    });
  });

  it("another tenant's key is 403, a text message 404, an expired file 410", async () => {
    const from = newPhone().slice(1);
    const image = await phoneSends({ from, type: 'image', media: { data: PNG.toString('base64'), mimetype: 'image/png' } });
    const text = await phoneSends({ from, text: 'no file' });
    const imageId = image.body.data.messageId;
    const answer = await download(imageId);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="image-${imageId}.png"`);
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PNG));

    const foreign = await world.api.get(`/v1/messages/${imageId}/media`, { key: world.tenants[1]!.liveKey });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(failure('forbidden'));
    const none = await world.api.get(`/v1/messages/${text.body.data.messageId}/media`, { key: world.tenant.liveKey });
    expect(none.status).toBe(404);
    expect(none.body).toEqual(failure('not_found'));

    const expired = await world.api.post(`/sandbox/messages/${imageId}/media-expiry`);
    expect(expired.status, expired.text).toBe(200);
    const gone = await world.api.get(`/v1/messages/${imageId}/media`, { key: world.tenant.liveKey });
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual(failure('media_expired'));
    // Only a received media message has a file the network can let expire.
    for (const id of [text.body.data.messageId, 'nope']) {
      const refused = await world.api.post(`/sandbox/messages/${id}/media-expiry`);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual(failure('not_found'));
    }
  });

  it('refuses media it cannot take with 400 naming the field', async () => {
    const from = newPhone().slice(1);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'image' }, /media: is required for a image/],
      [{ type: 'text', text: 'x', media: { data: PNG.toString('base64'), mimetype: 'image/png' } }, /media: is only for/],
      [{ type: 'image', media: { data: '***', mimetype: 'image/png' } }, /media\.data: must be the file as base64/],
      [{ type: 'image', media: { data: PNG.toString('base64'), mimetype: 'png' } }, /media\.mimetype: must be a MIME type/],
      [{ type: 'contact' }, /contacts: is required for a contact/],
      [{ type: 'reaction' }, /reaction: is required for a reaction/],
      [{ type: 'sticker', media: { data: '', mimetype: 'image/webp' } }, /media\.data/],
    ];
    for (const [body, message] of cases) {
      const refused = await phoneSends({ from, ...body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toEqual(failure('invalid_request'));
      expect(refused.body.error.message).toMatch(message);
    }
    expect(upserts().filter((hook) => hook.data.from === from)).toHaveLength(0);
  });

  it('a contact card, a reaction to a sent message and a reply to it arrive with their fields', async () => {
    const from = newPhone().slice(1);
    const sent = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: from, text: 'Your order shipped' } });
    const messageId = sent.body.data.id;
    // A phone reacts to and quotes what it has received, and the gateway knows a message by its network id
    // once it has marked it sent (on a quick run the phone's reaction came before that mark).
    await eventually(() => world.api.get(`/v1/messages/status/${messageId}`, { key: world.tenant.liveKey }), (r) => ['sent', 'delivered', 'read'].includes(r.body.data.status));
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Bruno Lima\nTEL:+5511977776666\nEND:VCARD';
    expect((await phoneSends({ from, type: 'contact', contacts: [{ displayName: 'Bruno Lima', vcard }] })).status).toBe(200);
    expect((await phoneSends({ from, type: 'reaction', reaction: { messageId, emoji: '❤️' } })).status).toBe(200);
    expect((await phoneSends({ from, text: 'Thanks!', quotedMessageId: messageId })).status).toBe(200);
    expect((await upsertWhere((data) => data.from === from && data.type === 'contact')).data.contacts).toEqual([{ displayName: 'Bruno Lima', vcard }]);
    expect((await upsertWhere((data) => data.from === from && data.type === 'reaction')).data.reaction).toEqual({ emoji: '❤️', messageId, networkMessageId: messageId });
    const reply = await upsertWhere((data) => data.from === from && data.type === 'text');
    expect(reply.data.quoted).toEqual({ messageId, networkMessageId: messageId });
    const stored = await world.api.get(`/v1/messages/status/${reply.data.messageId}`, { key: world.tenant.liveKey });
    expect(stored.body.data).toMatchObject({ text: 'Thanks!', quoted: { messageId } });
    expect(stored.body.data).not.toHaveProperty('media');
    expect(stored.body.data).not.toHaveProperty('fromLid');
  });

  it('our own media shows the same way: the media block in messages.upsert, and the download serves the file it was sent from', async () => {
    const own = await connectedSessionInstance(world.api, world.tenant.cookie, `sandbox send media ${Date.now()}`);
    await eventually(() => world.api.get(`/chat/instances/${own.id}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'connected');
    const hooked = await world.api.put(`/chat/instances/${own.id}`, { cookie: world.tenant.cookie, body: { webhookUrl: `${world.receiver.url}/session` } });
    expect(hooked.status, hooked.text).toBe(200);
    const to = newPhone().slice(1);
    const sent = await world.api.post(`/chat/instances/${own.id}/send-media`, { cookie: world.tenant.cookie, body: { to, mediaUrl: `${world.files.url}/picture.png`, mediaType: 'image', caption: 'look' } });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.id;
    const [hook] = await eventually(async () => upserts().filter((body) => body.data.key?.id === messageId), (list) => list.length === 1);
    expect(hook.data).toMatchObject({ key: { fromMe: true }, messageType: 'imageMessage', message: { conversation: 'look' } });
    expect(hook.data.message.media).toEqual({ type: 'image', mimetype: 'image/png', size: null, caption: 'look', fileName: null, url: expect.stringMatching(new RegExp(`^https://gateway\\.example\\.com/media/${messageId}\\?expires=\\d+&signature=[\\w-]+$`)), expiresAt: expect.any(String), stored: false });
    const answer = await download(messageId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="picture.png"');
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(PNG));
  });
});
