// Media: inbound media stored for the gateway to fetch, the media-id lookup, the download URL and its expiry,
// uploads and deletes.
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CloudApi, CloudApiOptions } from './index.js';
import { NUMBER, USER, eventually, graph, messagesOf, setup, type Receiver } from './test-helpers.js';

let api: CloudApi;
let receiver: Receiver;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(options: CloudApiOptions = {}) {
  ({ api, receiver, close } = await setup(options));
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2048)]);

/** A user sends a picture; answers the media item of the webhook. */
async function inboundImage(): Promise<Record<string, any>> {
  await api.customerMessage(NUMBER.phoneNumberId, USER, { type: 'image', data: JPEG, mimeType: 'image/jpeg', caption: 'Taj Mahal' });
  await receiver.waitFor(1);
  return messagesOf(receiver)[0]?.image;
}

const download = (url: string, token?: string) => fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

describe('media', () => {
  it('stores inbound media and describes it in the webhook with a base64 sha256', async () => {
    await start();
    const image = await inboundImage();
    expect(image).toEqual({ caption: 'Taj Mahal', mime_type: 'image/jpeg', sha256: createHash('sha256').update(JPEG).digest('base64'), id: expect.stringMatching(/^\d{16}$/) });
  });

  it('answers GET /<media-id> with the documented fields and a URL that serves the bytes with the token', async () => {
    await start();
    const { id } = await inboundImage();
    const info = await graph(api, 'GET', `/v23.0/${id}`);
    expect(info.status).toBe(200);
    expect(Object.keys(info.json)).toEqual(['messaging_product', 'url', 'mime_type', 'sha256', 'file_size', 'id']);
    expect(info.json).toEqual({
      messaging_product: 'whatsapp',
      url: expect.stringMatching(new RegExp(`^${api.url}/whatsapp_business/attachments/\\?mid=${id}&ext=\\d+&hash=`)),
      mime_type: 'image/jpeg',
      sha256: createHash('sha256').update(JPEG).digest('hex'),
      file_size: String(JPEG.length),
      id,
    });
    expect((await graph(api, 'GET', `/v23.0/${id}?phone_number_id=${NUMBER.phoneNumberId}`)).status).toBe(200);

    const bytes = await download(info.json.url, NUMBER.accessToken);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await bytes.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it('refuses the download without the token or with a token that may not see it (401)', async () => {
    await start();
    api.addNumber({ phoneNumberId: '300000000000001', displayPhoneNumber: '15550000002', accessToken: 'EAAG-other', appSecret: 's', businessAccountId: '999' });
    const { id } = await inboundImage();
    const { json } = await graph(api, 'GET', `/v23.0/${id}`);
    const bare = await download(json.url);
    expect(bare.status).toBe(401);
    expect((await bare.json()).error.code).toBe(190);
    expect((await download(json.url, 'EAAG-wrong')).status).toBe(401);
    expect((await download(json.url, 'EAAG-other')).status).toBe(401);
    expect((await download(json.url.replace(/hash=[^&]+/, 'hash=forged'), NUMBER.accessToken)).status).toBe(404);
  });

  it('lets a URL expire after its lifetime; a new lookup gives a fresh one', async () => {
    await start({ mediaUrlTtlMs: 1000 });
    const { id } = await inboundImage();
    const issuedAt = Date.now();
    const first = (await graph(api, 'GET', `/v23.0/${id}`)).json.url as string;
    const early = await download(first, NUMBER.accessToken);
    // Served while fresh (a machine slow enough to pass the second first proves nothing either way).
    if (Date.now() - issuedAt < 1000) expect(early.status).toBe(200);
    const expired = await eventually(() => download(first, NUMBER.accessToken), (r) => r.status !== 200);
    expect(expired.status).toBe(404);
    const fresh = (await graph(api, 'GET', `/v23.0/${id}`)).json.url as string;
    expect(fresh).not.toBe(first);
    // The fresh URL lives 1 s; read it at once or look it up again, as a client retrying after expiry would.
    const served = await eventually(
      async () => download((await graph(api, 'GET', `/v23.0/${id}`)).json.url, NUMBER.accessToken),
      (r) => r.status === 200,
    );
    expect(Buffer.from(await served.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it('gives URLs five minutes by default', async () => {
    await start();
    const { id } = await inboundImage();
    const url = new URL((await graph(api, 'GET', `/v23.0/${id}`)).json.url);
    const expiresAt = Number(url.searchParams.get('ext')) * 1000;
    expect(expiresAt - Date.now()).toBeGreaterThan(4 * 60 * 1000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
  });

  it('answers an unknown media id, or one owned by another number, with GraphMethodException 100/33', async () => {
    await start();
    const unknown = await graph(api, 'GET', '/v23.0/1234567890123456');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ type: 'GraphMethodException', code: 100, error_subcode: 33 });
    expect(unknown.json.error.message).toMatch(/^Unsupported get request\. Object with ID '1234567890123456' does not exist/);

    const { id } = await inboundImage();
    expect((await graph(api, 'GET', `/v23.0/${id}?phone_number_id=200000000000009`)).json.error.code).toBe(100);
    api.addNumber({ phoneNumberId: '300000000000001', displayPhoneNumber: '15550000002', accessToken: 'EAAG-other', appSecret: 's', businessAccountId: '999' });
    expect((await graph(api, 'GET', `/v23.0/${id}`, undefined, 'EAAG-other')).status).toBe(400);
    expect((await graph(api, 'GET', `/v23.0/${id}`, undefined, null)).status).toBe(401);
  });

  it('deletes media: {success:true}, then the id is unknown', async () => {
    await start();
    const { id } = await inboundImage();
    const url = (await graph(api, 'GET', `/v23.0/${id}`)).json.url;
    const deleted = await graph(api, 'DELETE', `/v23.0/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ success: true });
    expect((await graph(api, 'GET', `/v23.0/${id}`)).status).toBe(400);
    expect((await download(url, NUMBER.accessToken)).status).toBe(404);
  });

  it('takes multipart uploads and answers {id}', async () => {
    await start();
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', 'image/png');
    form.set('file', new Blob([new Uint8Array(JPEG)], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${api.url}/v23.0/${NUMBER.phoneNumberId}/media`, { method: 'POST', headers: { authorization: `Bearer ${NUMBER.accessToken}` }, body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string };
    expect(Object.keys(body)).toEqual(['id']);
    const info = await graph(api, 'GET', `/v23.0/${body.id}`);
    expect(info.json).toMatchObject({ mime_type: 'image/png', file_size: String(JPEG.length) });

    const noFile = new FormData();
    noFile.set('messaging_product', 'whatsapp');
    const refused = await fetch(`${api.url}/v23.0/${NUMBER.phoneNumberId}/media`, { method: 'POST', headers: { authorization: `Bearer ${NUMBER.accessToken}` }, body: noFile });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error).toMatchObject({ code: 100, error_data: { details: 'The parameter file is required.' } });
  });

  it('can answer file_size as a number and put the URL in the webhook', async () => {
    await start({ mediaFileSizeAsNumber: true, mediaUrlInWebhook: true });
    const image = await inboundImage();
    expect(image.url).toMatch(/\/whatsapp_business\/attachments\/\?mid=/);
    expect((await download(image.url, NUMBER.accessToken)).status).toBe(200);
    expect((await graph(api, 'GET', `/v23.0/${image.id}`)).json.file_size).toBe(JPEG.length);
  });
});
