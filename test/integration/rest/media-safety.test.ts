import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_MEDIA_BODY_BYTES, MAX_MEDIA_BYTES } from '../../../src/domain/media/limits.js';
import { connectedV1Instance } from '../../factories/sandbox.js';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { HTML_PAGE, mp3, oggOpus, PNG_1PX } from '../../kit/files.js';
import { sandboxWorld, connectedInstance } from '../../kit/worlds/sandbox.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const b64 = (bytes: Buffer) => bytes.toString('base64');

describe.each(MODES)('Media: types checked against the bytes, downloads served safely, uploads up to 16 MiB stored — $name', (mode) => {
  const world = sandboxWorld(mode, {
    files: {
      // HTML a host declares to be a picture.
      '/evil.html': { type: 'image/png', body: HTML_PAGE },
      '/dot.png': { type: 'image/png', body: PNG_1PX },
    },
  });
  let instance: { id: string; phone: string };

  beforeAll(async () => {
    instance = await connectedInstance(world, `media safety ${Date.now()}`);
  }, 60_000);

  const send = (body: Record<string, unknown>) => world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key: world.tenant.liveKey, body: { to: newPhone().slice(1), ...body } });
  const download = (messageId: string) => fetch(`${world.gw.url}/v1/messages/${messageId}/media`, { headers: { 'x-api-key': world.tenant.liveKey } });
  const stored = () => world.gw.gateway.infra.db.prisma.message.count({ where: { instanceId: instance.id } });
  const expectSafeHeaders = (answer: Response) => {
    expect(answer.headers.get('content-security-policy')).toBe('sandbox');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  };

  it('refuses HTML declared as image/png, uploaded or by URL, with 400 naming media; stores nothing', async () => {
    const before = await stored();
    const uploaded = await send({ media: { data: b64(HTML_PAGE), mimetype: 'image/png', fileName: 'evil.html' }, mediaType: 'image' });
    expect(uploaded.status, uploaded.text).toBe(400);
    expect(uploaded.body).toEqual(failure('invalid_request'));
    expect(uploaded.body.error.message).toBe('media.data: is declared image/png, but its bytes are not image/png (nor any image type known)');
    const linked = await send({ media: { url: `${world.files.url}/evil.html` }, mediaType: 'image' });
    expect(linked.status, linked.text).toBe(400);
    expect(linked.body.error.message).toMatch(/^media\.url: serves image\/png, but its bytes are not image\/png/);
    // A PNG declared as a sticker (image/webp), and one sent by send-media as a video's type, are refused too.
    const sticker = await send({ media: { data: b64(PNG_1PX), mimetype: 'image/webp' }, mediaType: 'sticker' });
    expect(sticker.status).toBe(400);
    expect(sticker.body.error.message).toBe('media.data: is declared image/webp, but its bytes are image/png, not image/webp');
    expect(await stored()).toBe(before);
  });

  it('serves a download with CSP sandbox, nosniff, its own type and a file name whose extension is that type', async () => {
    const picture = await send({ media: { data: b64(PNG_1PX), mimetype: 'image/png', fileName: 'evil.html' }, mediaType: 'image' });
    expect(picture.status, picture.text).toBe(200);
    const image = await download(picture.body.data.id);
    expect(image.status).toBe(200);
    expectSafeHeaders(image);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toBe('attachment; filename="evil.html.png"');
    expect(sha256(new Uint8Array(await image.arrayBuffer()))).toBe(sha256(PNG_1PX));

    // A document may be any bytes; it is served as its declared (listed) type, named to match.
    const document = await send({ media: { data: b64(HTML_PAGE), mimetype: 'application/pdf', fileName: 'page.html' }, mediaType: 'document' });
    expect(document.status, document.text).toBe(200);
    const served = await download(document.body.data.id);
    expectSafeHeaders(served);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="page.html.pdf"');
  });

  it('serves a received file declared text/html as application/octet-stream named .bin', async () => {
    const inbound = await world.api.post('/sandbox/messages', {
      body: { from: newPhone().slice(1), to: instance.phone.slice(1), type: 'document', media: { data: b64(HTML_PAGE), mimetype: 'text/html', fileName: 'invoice.html' } },
    });
    expect(inbound.status, inbound.text).toBe(200);
    const answer = await download(inbound.body.data.messageId);
    expect(answer.status).toBe(200);
    expectSafeHeaders(answer);
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="invoice.html.bin"');
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(HTML_PAGE));
  });

  it('takes a voice note declared audio/ogg; codecs=opus with Ogg/Opus bytes, and refuses other audio as a voice note', async () => {
    const note = oggOpus();
    const voice = await send({ media: { data: b64(note), mimetype: 'audio/ogg; codecs=opus' }, mediaType: 'audio', voice: true });
    expect(voice.status, voice.text).toBe(200);
    const stored = await world.api.get(`/v1/messages/status/${voice.body.data.id}`, { key: world.tenant.liveKey });
    expect(stored.body.data).toMatchObject({ type: 'audio', media: { mimetype: 'audio/ogg; codecs=opus' } });
    const served = await download(voice.body.data.id);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(note));
    expect(served.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="audio-${voice.body.data.id}.ogg"`);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ media: { data: b64(mp3()), mimetype: 'audio/mpeg' }, voice: true }, 'voice: needs an Ogg/Opus file (audio/ogg; codecs=opus); this one is audio/mpeg'],
      [{ media: { data: b64(mp3()), mimetype: 'audio/ogg; codecs=opus' } }, 'media.data: is declared audio/ogg; codecs=opus, but its bytes are audio/mpeg, not audio/ogg'],
      [{ media: { data: b64(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 7)])), mimetype: 'audio/ogg' } }, 'media.data: is declared audio/ogg, but its bytes are application/ogg, not audio/ogg'],
      [{ media: { data: b64(note), mimetype: 'audio/ogg; codecs' } }, 'media.mimetype: must be a content type such as image/png or audio/ogg; codecs=opus'],
    ];
    for (const [body, message] of cases) {
      const refused = await send({ mediaType: 'audio', ...body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message).toBe(message);
    }
  });

  it('stores a base64 file of 16 MiB (the largest) sent past the old 1 MiB body, serves it back and hands it to the phone; refuses one byte more (400) and a body past its limit (413); other routes keep 1 MiB', async () => {
    // Random bytes, as compressed media are: a body of 22.4 MB, refused with 413 under the ordinary 1 MiB limit.
    const largest = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(MAX_MEDIA_BYTES - 9)]);
    const to = newPhone().slice(1);
    const uploaded = await send({ to, media: { data: b64(largest), mimetype: 'application/pdf', fileName: 'large.pdf' }, mediaType: 'document' });
    expect(uploaded.status, uploaded.text.slice(0, 300)).toBe(200);
    const kept = await download(uploaded.body.data.id);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('content-length')).toBe(String(MAX_MEDIA_BYTES));
    expect(sha256(new Uint8Array(await kept.arrayBuffer()))).toBe(sha256(largest));
    const inbox = await eventually(() => phoneInbox(world.api, to), (r) => r.body.data.length === 1);
    expect(inbox.body.data[0]).toMatchObject({ id: uploaded.body.data.id, type: 'document', media: { mimetype: 'application/pdf', fileName: 'large.pdf', size: MAX_MEDIA_BYTES, sha256: sha256(largest) } });

    const over = await send({ media: { data: b64(Buffer.concat([largest, Buffer.from('x')])), mimetype: 'application/pdf' }, mediaType: 'document' });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe(`media.data: must be at most ${MAX_MEDIA_BYTES} bytes once decoded`);

    const tooLarge = await send({ media: { data: 'A'.repeat(MAX_MEDIA_BODY_BYTES), mimetype: 'application/pdf' }, mediaType: 'document' });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual(failure('payload_too_large'));
    expect(tooLarge.body.error.message).toBe(`The request body is larger than ${MAX_MEDIA_BODY_BYTES} bytes.`);

    // Another route of the same router, and the spec's send, still refuse a body over 1 MiB.
    const text = 'x'.repeat(1024 * 1024);
    const edit = await world.api.request('PATCH', `/v1/chat/instances/${instance.id}/messages/${uploaded.body.data.id}`, { key: world.tenant.liveKey, body: { text } });
    expect(edit.status).toBe(413);
    expect(edit.body.error.message).toBe('The request body is larger than 1048576 bytes.');
    const spec = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: newPhone().slice(1), text } });
    expect(spec.status).toBe(413);
  });
});
