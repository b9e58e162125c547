import { createHash, createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../factories/sandbox.js';
import { failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { oggOpus, PNG_1PX } from '../../kit/files.js';
import { connectedInstance, sandboxWorld } from '../../kit/worlds/sandbox.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const VOICE = oggOpus(80);

async function* once(bytes: Uint8Array) {
  yield bytes;
}

describe.each(MODES)('Media: signed links, byte ranges and safe headers — $name', (mode) => {
  const world = sandboxWorld(mode, { env: { MEDIA_STORE: 'folder', MEDIA_LINK_TTL: '10m' }, tenants: ['enterprise', 'pro'] });
  let instance: { id: string; phone: string };

  beforeAll(async () => {
    instance = await connectedInstance(world, `media links ${Date.now()}`);
    const hooked = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: world.tenant.liveKey, body: { url: `${world.receiver.url}/v1` } });
    expect(hooked.status, hooked.text).toBe(200);
  }, 60_000);

  const prisma = () => world.gw.gateway.infra.db.prisma;
  const phoneSends = (body: Record<string, unknown>) => world.api.post('/sandbox/messages', { body: { to: instance.phone.slice(1), ...body } });
  const status = (messageId: string) => world.api.get(`/v1/messages/status/${messageId}`, { key: world.tenant.liveKey });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${world.gw.url}${path}`, { headers });
  const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

  /** A message its phone sent, kept in the store as the keeping of received media leaves it. */
  async function keptVoiceNote() {
    const sent = await phoneSends({ from: newPhone().slice(1), type: 'audio', voice: true, media: { data: VOICE.toString('base64'), mimetype: 'audio/ogg' } });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.messageId as string;
    const store = world.gw.gateway.infra.mediaStore!;
    const kept = await store.put(once(VOICE), { maxBytes: 1 << 20, contentType: 'audio/ogg' });
    await prisma().message.update({ where: { id: messageId }, data: { mediaSha256: kept.sha256, mediaState: 'stored' } });
    return messageId;
  }

  /** A link signed with the gateway's own key, for an expiry a client could not have been given. */
  async function forged(messageId: string, expires: number) {
    const secret = await prisma().gatewaySecret.findUniqueOrThrow({ where: { name: 'media-links' } });
    const signature = createHmac('sha256', Buffer.from(secret.value)).update(`${messageId}.${expires}`).digest('base64url');
    return `/media/${messageId}?expires=${expires}&signature=${signature}`;
  }

  it('the record carries a signed link until a whole minute past MEDIA_LINK_TTL; it serves the file without a key, safely', async () => {
    const messageId = await keptVoiceNote();
    const before = Date.now();
    const record = await status(messageId);
    expect(record.status, record.text).toBe(200);
    const media = record.body.data.media;
    expect(media).toMatchObject({ type: 'audio', stored: true, sha256: sha256(VOICE), url: expect.stringMatching(new RegExp(`^/media/${messageId}\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`)) });
    const expiresAt = Date.parse(media.expiresAt);
    expect(expiresAt % 60_000).toBe(0);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 11 * 60_000);
    // Read again within the minute: the same link (a browser may keep what it fetched).
    const again = await status(messageId);
    if (Date.parse(again.body.data.media.expiresAt) === expiresAt) expect(again.body.data.media.url).toBe(media.url);

    const answer = await get(media.url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/ogg');
    expect(answer.headers.get('content-security-policy')).toBe('sandbox');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="audio-${messageId}.ogg"`);
    expect(answer.headers.get('content-length')).toBe(String(VOICE.length));
    expect(answer.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    // No key to count against: the client's address is limited instead.
    expect(answer.headers.get('x-ratelimit-limit')).toBe('600');
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(VOICE));
  });

  it('a range of a voice note is 206 with its bytes; from the end and open-ended too; past the end 416; several ranges the whole file', async () => {
    const messageId = await keptVoiceNote();
    const { url } = (await status(messageId)).body.data.media;
    const keyed = (range: string) => get(`/v1/messages/${messageId}/media`, { 'x-api-key': world.tenant.liveKey, range });

    for (const request of [(range: string) => get(url, { range }), keyed]) {
      const middle = await request('bytes=10-99');
      expect(middle.status).toBe(206);
      expect(middle.headers.get('content-range')).toBe(`bytes 10-99/${VOICE.length}`);
      expect(middle.headers.get('content-length')).toBe('90');
      expect(middle.headers.get('content-security-policy')).toBe('sandbox');
      expect(Buffer.from(await middle.arrayBuffer()).equals(VOICE.subarray(10, 100))).toBe(true);

      const tail = await request('bytes=-100');
      expect(tail.status).toBe(206);
      expect(tail.headers.get('content-range')).toBe(`bytes ${VOICE.length - 100}-${VOICE.length - 1}/${VOICE.length}`);
      expect(Buffer.from(await tail.arrayBuffer()).equals(VOICE.subarray(VOICE.length - 100))).toBe(true);

      const rest = await request(`bytes=${VOICE.length - 5}-`);
      expect(rest.status).toBe(206);
      expect(Buffer.from(await rest.arrayBuffer()).equals(VOICE.subarray(VOICE.length - 5))).toBe(true);

      const beyond = await request(`bytes=${VOICE.length}-`);
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${VOICE.length}`);
      expect(await beyond.json()).toEqual(failure('range_not_satisfiable'));

      for (const whole of ['bytes=0-1,5-9', 'bytes=9-3', 'items=0-1', 'bytes=abc']) {
        const answer = await request(whole);
        expect(answer.status, whole).toBe(200);
        expect(Buffer.from(await answer.arrayBuffer()).equals(VOICE)).toBe(true);
      }
    }
  });

  it('media not kept yet is served whole, a Range aside', async () => {
    const sent = await phoneSends({ from: newPhone().slice(1), type: 'image', media: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' } });
    const messageId = sent.body.data.messageId as string;
    // This suite keeps every file: once kept, the message is made one that was not (as with policy none).
    await eventually(() => status(messageId), (answer) => answer.body.data.media.stored === true);
    await prisma().message.update({ where: { id: messageId }, data: { mediaSha256: null, mediaState: null } });
    const { media } = (await status(messageId)).body.data;
    expect(media.stored).toBe(false);
    const answer = await get(media.url, { range: 'bytes=0-9' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('accept-ranges')).toBe('none');
    expect(answer.headers.get('content-security-policy')).toBe('sandbox');
    expect(Buffer.from(await answer.arrayBuffer()).equals(PNG_1PX)).toBe(true);

    // Kept once, but the store no longer has it: served from the network as before.
    await prisma().message.update({ where: { id: messageId }, data: { mediaSha256: '0'.repeat(64), mediaState: 'stored' } });
    const lost = await get(`/v1/messages/${messageId}/media`, { 'x-api-key': world.tenant.liveKey, range: 'bytes=0-9' });
    expect(lost.status).toBe(200);
    expect(Buffer.from(await lost.arrayBuffer()).equals(PNG_1PX)).toBe(true);
  });

  it('an expired, altered or malformed link is 403 media_link_invalid, never 5xx', async () => {
    const messageId = await keptVoiceNote();
    const other = await keptVoiceNote();
    const { url } = (await status(messageId)).body.data.media;
    const link = new URL(url, world.gw.url);
    const expires = Number(link.searchParams.get('expires'));
    const signature = link.searchParams.get('signature')!;

    // Signed by the gateway's key, but its time has passed.
    const past = await get(await forged(messageId, Math.floor(Date.now() / 1000) - 1));
    // A later expiry, another message's id, a changed signature: none matches what was signed.
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const bad = [
      past,
      await get(`/media/${messageId}?expires=${expires + 60}&signature=${signature}`),
      await get(`/media/${other}?expires=${expires}&signature=${signature}`),
      await get(`/media/${messageId}?expires=${expires}&signature=${flipped}`),
      await get(`/media/${messageId}?expires=${expires}&signature=${signature}x`),
      await get(`/media/${messageId}`),
      await get(`/media/${messageId}?expires=soon&signature=${signature}`),
      await get(`/media/${messageId}?expires=${expires}&expires=1&signature=`),
      await get(`/media/${messageId}?expires=-5&signature=%00%ff`),
      await get(`/media/not-a-message?expires=${expires}&signature=${signature}`),
      await get(`/media/${messageId}?expires=99999999999999999999&signature=${signature}`),
    ];
    for (const answer of bad) {
      expect(answer.status, answer.url).toBe(403);
      expect(await answer.json()).toEqual(failure('media_link_invalid'));
    }
    // The good link still works, and a forged one for the future is exactly as good (the key decides).
    expect((await get(pathOf(url))).status).toBe(200);
    expect((await get(await forged(messageId, Math.floor(Date.now() / 1000) + 120))).status).toBe(200);
  });

  it("another tenant's message is not reachable with one's own link; a link outlives no deleted message", async () => {
    const messageId = await keptVoiceNote();
    const { url } = (await status(messageId)).body.data.media;
    const foreign = await world.api.get(`/v1/messages/${messageId}/media`, { key: world.tenants[1]!.liveKey });
    expect(foreign.status).toBe(403);
    await prisma().message.delete({ where: { id: messageId } });
    const gone = await get(url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual(failure('not_found'));
  });

  it('webhooks and GraphQL carry the signed link; each webhook attempt signs it anew', async () => {
    const from = newPhone().slice(1);
    const sent = await phoneSends({ from, type: 'image', media: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' } });
    const messageId = sent.body.data.messageId as string;
    const hook = await eventually(
      async () => world.receiver.of('messages.upsert').map((call) => JSON.parse(call.body)).find((body) => body.data.from === from),
      (found) => found !== undefined,
    );
    expect(hook.data.media).toMatchObject({ type: 'image', stored: false, url: expect.stringMatching(new RegExp(`^/media/${messageId}\\?expires=\\d+&signature=`)), expiresAt: expect.any(String) });
    expect((await get(hook.data.media.url)).status).toBe(200);
    // What is stored is the stable path; the link is made as the delivery leaves.
    const delivery = await prisma().webhookDelivery.findFirstOrThrow({ where: { payload: { contains: messageId }, event: 'messages.upsert' } });
    expect(delivery.payload).toContain(`/v1/messages/${messageId}/media`);
    expect(delivery.payload).not.toContain('signature=');

    // Kept a moment after it arrived: GraphQL then says so, with the bytes' hash.
    const read = await eventually(
      () => world.api.graphql(`query ($id: ID!) { message(id: $id) { media { type url expiresAt stored sha256 error { code } } } }`, { id: messageId }, { key: world.tenant.liveKey }),
      (answer) => answer.body.data?.message?.media?.stored === true,
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.message.media).toEqual({ type: 'image', url: expect.stringMatching(new RegExp(`^/media/${messageId}\\?expires=`)), expiresAt: expect.any(String), stored: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), error: null });
    expect((await get(read.body.data.message.media.url)).status).toBe(200);
  });

  it('a file that could not be kept says why', async () => {
    const sent = await phoneSends({ from: newPhone().slice(1), type: 'image', media: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' } });
    const messageId = sent.body.data.messageId as string;
    await prisma().message.update({ where: { id: messageId }, data: { mediaState: 'failed', mediaError: { code: 'media_too_large', message: 'too big' } } });
    const record = await status(messageId);
    expect(record.body.data.media).toMatchObject({ stored: false, error: { code: 'media_too_large', message: 'too big' } });
    expect(record.body.data.media.sha256).toBeUndefined();
  });
});
