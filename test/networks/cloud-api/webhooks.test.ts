// Webhook POSTs to the gateway: envelope, escaped bytes and their signature, retries, batching, verification,
// and the shapes of inbound messages.
import { createHmac } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serialize, startCloudApi, type CloudApi } from './index.js';
import { NUMBER, USER, messagesOf, sendText, setup, signatureValid, startReceiver, type Receiver } from './test-helpers.js';

let api: CloudApi;
let receiver: Receiver;
let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function start(...args: Parameters<typeof setup>) {
  const started = await setup(...args);
  ({ api, receiver } = started);
  cleanups.push(started.close);
}

describe('webhook bytes', () => {
  it('posts the documented envelope for a user message', async () => {
    await start();
    const wamid = await api.customerMessage(NUMBER.phoneNumberId, USER, { type: 'text', text: 'hi', profileName: 'Sheena Nelson' });
    const [hit] = await receiver.waitFor(1);
    expect(hit?.headers['content-type']).toBe('application/json');
    const body = JSON.parse(hit?.text ?? '');
    expect(body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: NUMBER.businessAccountId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: NUMBER.displayPhoneNumber, phone_number_id: NUMBER.phoneNumberId },
                contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: USER }],
                messages: [{ from: USER, id: wamid, timestamp: expect.stringMatching(/^\d{10}$/), type: 'text', text: { body: 'hi' } }],
              },
            },
          ],
        },
      ],
    });
    expect(Math.abs(Number(body.entry[0].changes[0].value.messages[0].timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('escapes non-ASCII as lowercase \\uXXXX and signs exactly the bytes it sends', async () => {
    await start();
    await api.customerMessage(NUMBER.phoneNumberId, USER, { type: 'text', text: 'äöå 😀', profileName: 'Zoë' });
    const [hit] = await receiver.waitFor(1);
    if (!hit) throw new Error('no POST');
    expect(hit.text).toContain('"text":{"body":"\\u00e4\\u00f6\\u00e5 \\ud83d\\ude00"}');
    expect(hit.text).toContain('"name":"Zo\\u00eb"');
    expect([...hit.raw].every((byte) => byte < 0x80)).toBe(true);

    // A receiver hashing the raw bytes accepts it…
    expect(signatureValid(NUMBER.appSecret, hit.raw, hit.headers['x-hub-signature-256'])).toBe(true);
    expect(hit.headers['x-hub-signature']).toBe(`sha1=${createHmac('sha1', NUMBER.appSecret).update(hit.raw).digest('hex')}`);
    // …one hashing a re-serialisation of the parsed body does not.
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(hit.text)));
    expect(reserialised.equals(hit.raw)).toBe(false);
    expect(signatureValid(NUMBER.appSecret, reserialised, hit.headers['x-hub-signature-256'])).toBe(false);
    expect(signatureValid('another-secret', hit.raw, hit.headers['x-hub-signature-256'])).toBe(false);

    const [attempt] = await api.waitForDeliveries(1);
    expect(attempt).toMatchObject({ attempt: 1, status: 200, body: hit.text, signature: hit.headers['x-hub-signature-256'] });
  });

  it('serialises like json.dumps with ensure_ascii', () => {
    expect(serialize({ a: 'äöå', b: '😀', c: 'ASCII / "quoted"', d: '\u007f\u0080' })).toBe(
      '{"a":"\\u00e4\\u00f6\\u00e5","b":"\\ud83d\\ude00","c":"ASCII / \\"quoted\\"","d":"\u007f\\u0080"}',
    );
    expect(serialize({ u: 'https://a/b' }, { escapeSlashes: true })).toBe('{"u":"https:\\/\\/a\\/b"}');
  });
});

describe('delivery', () => {
  it('retries any answer but 200 (204 included) with identical bytes and decreasing frequency', async () => {
    const answers = [500, 503, 204, 200];
    await start({ webhookRetryDelaysMs: [50, 100, 200] }, (call) => answers[call - 1] ?? 200);
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'hello');
    const hits = await receiver.waitFor(4);
    await api.waitForWebhooksIdle();
    expect(new Set(hits.map((h) => h.text)).size).toBe(1);
    expect(new Set(hits.map((h) => h.headers['x-hub-signature-256'])).size).toBe(1);
    const attempts = api.deliveries();
    expect(attempts.map((a) => [a.deliveryId, a.attempt, a.status])).toEqual([
      [1, 1, 500],
      [1, 2, 503],
      [1, 3, 204],
      [1, 4, 200],
    ]);
    const gaps = attempts.slice(1).map((a, i) => a.at - (attempts[i] as { at: number }).at);
    [50, 100, 200].forEach((delay, i) => expect(gaps[i]).toBeGreaterThanOrEqual(delay - 2));
    expect(api.pendingWebhooks()).toBe(0);
  });

  it('retries after connection errors and holds events until a URL is set', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const bare = await startCloudApi({ webhookRetryDelaysMs: [30] });
    cleanups.push(() => bare.close());
    bare.addNumber(NUMBER);
    await bare.customerMessage(NUMBER.phoneNumberId, USER, 'held');
    expect(bare.pendingWebhooks()).toBe(1);
    expect(bare.deliveries()).toEqual([]);

    bare.setWebhook(deadUrl);
    const failed = await bare.waitForDeliveries(2, (a) => a.status === null);
    expect(failed[0]?.error).toBeTruthy();

    const late = await startReceiver();
    cleanups.push(late.close);
    bare.setWebhook(late.url);
    const [hit] = await late.waitFor(1);
    await bare.waitForWebhooksIdle();
    expect(hit?.text).toBe(failed[0]?.body);
    expect(bare.pendingWebhooks()).toBe(0);
  });

  it('gives an attempt up after the timeout and tries again', async () => {
    const held: ServerResponse[] = [];
    let calls = 0;
    const slow = createServer((req, res) => {
      req.resume();
      calls++;
      if (calls === 1) held.push(res);
      else res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          slow.closeAllConnections();
          slow.close(() => resolve());
        }),
    );
    const timed = await startCloudApi({ webhookRetryDelaysMs: [20], webhookTimeoutMs: 300 });
    cleanups.push(() => timed.close());
    timed.addNumber(NUMBER);
    timed.setWebhook(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`);
    await timed.customerMessage(NUMBER.phoneNumberId, USER, 'slow');
    await timed.waitForWebhooksIdle();
    expect(timed.deliveries().map((a) => a.status)).toEqual([null, 200]);
  });

  it('stops after webhookMaxAttempts', async () => {
    await start({ webhookMaxAttempts: 3, webhookRetryDelaysMs: [10] }, () => 500);
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'never');
    await api.waitForWebhooksIdle();
    expect(api.deliveries().map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(api.pendingWebhooks()).toBe(0);
  });

  it('redelivers the same bytes as a duplicate on request', async () => {
    await start();
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'twice');
    await receiver.waitFor(1);
    api.redeliver(1);
    const hits = await receiver.waitFor(2);
    expect(hits[1]?.text).toBe(hits[0]?.text);
    expect(hits[1]?.headers['x-hub-signature-256']).toBe(hits[0]?.headers['x-hub-signature-256']);
  });

  it('keeps POSTs in the order their events happened', async () => {
    await start();
    for (let i = 0; i < 10; i++) await api.customerMessage(NUMBER.phoneNumberId, USER, `m${i}`);
    await receiver.waitFor(10);
    expect(messagesOf(receiver).map((m) => m.text.body)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
  });
});

describe('batching', () => {
  it('puts several messages and contacts in one change with customerMessages', async () => {
    await start();
    const wamids = await api.customerMessages(NUMBER.phoneNumberId, [
      { from: USER, message: { type: 'text', text: 'one', profileName: 'Ann' } },
      { from: '447700900123', message: { type: 'text', text: 'two', profileName: 'Bob' } },
      { from: USER, message: { type: 'text', text: 'three', profileName: 'Ann' } },
    ]);
    const [hit] = await receiver.waitFor(1);
    expect(signatureValid(NUMBER.appSecret, hit?.raw ?? Buffer.alloc(0), hit?.headers['x-hub-signature-256'])).toBe(true);
    const [body] = receiver.bodies();
    expect(body?.entry).toHaveLength(1);
    expect(body?.entry[0]?.changes).toHaveLength(1);
    const value = body?.entry[0]?.changes[0]?.value;
    expect(value?.contacts).toEqual([
      { profile: { name: 'Ann' }, wa_id: USER },
      { profile: { name: 'Bob' }, wa_id: '447700900123' },
    ]);
    expect(value?.messages.map((m: any) => [m.id, m.from, m.text.body])).toEqual([
      [wamids[0], USER, 'one'],
      [wamids[1], '447700900123', 'two'],
      [wamids[2], USER, 'three'],
    ]);
  });

  it('puts the next N events, across numbers and kinds, in one POST with several entries and changes', async () => {
    await start();
    api.addNumber({ ...NUMBER, phoneNumberId: '200000000000001', displayPhoneNumber: '15550000001', businessAccountId: '777' });
    api.statusScript(NUMBER.phoneNumberId, [{ status: 'sent', delayMs: 0 }]);
    api.batchNext(4);
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'a');
    const sent = await sendText(api, 'reply');
    await api.customerMessage('200000000000001', USER, 'b');
    api.reportError(NUMBER.phoneNumberId, 130429);
    const [hit] = await receiver.waitFor(1);
    expect(signatureValid(NUMBER.appSecret, hit?.raw ?? Buffer.alloc(0), hit?.headers['x-hub-signature-256'])).toBe(true);
    const body = receiver.bodies()[0];
    expect(body?.entry.map((e) => e.id)).toEqual([NUMBER.businessAccountId, '777']);
    const first = body?.entry[0]?.changes ?? [];
    expect(first.map((c) => Object.keys(c.value))).toEqual([
      ['messaging_product', 'metadata', 'contacts', 'messages'],
      ['messaging_product', 'metadata', 'statuses'],
      ['messaging_product', 'metadata', 'errors'],
    ]);
    expect(first[1]?.value.statuses[0]).toMatchObject({ id: sent.json.messages[0].id, status: 'sent' });
    expect(first[2]?.value.errors).toEqual([
      {
        code: 130429,
        title: 'Rate limit hit',
        message: 'Rate limit hit',
        error_data: { details: expect.any(String) },
        href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
      },
    ]);
    expect(body?.entry[1]?.changes[0]?.value.metadata).toEqual({ display_phone_number: '15550000001', phone_number_id: '200000000000001' });
    // The batch is spent: the next event has its own POST.
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'after');
    await receiver.waitFor(2);
  });

  it('sends a short batch when its window passes', async () => {
    await start();
    api.batchNext(5, 100);
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'a');
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'b');
    await receiver.waitFor(1);
    expect(messagesOf(receiver).map((m) => m.text.body)).toEqual(['a', 'b']);
  });

  it('splits a batch by app secret, each POST signed with its own', async () => {
    await start();
    api.addNumber({ phoneNumberId: '300000000000001', displayPhoneNumber: '15550000002', accessToken: 'EAAG-other', appSecret: 'secret-two', businessAccountId: '999' });
    api.batchNext(2);
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'a');
    await api.customerMessage('300000000000001', USER, 'b');
    const hits = await receiver.waitFor(2);
    const bySecret = hits.map((h) => [NUMBER.appSecret, 'secret-two'].find((s) => signatureValid(s, h.raw, h.headers['x-hub-signature-256'])));
    expect(bySecret).toEqual([NUMBER.appSecret, 'secret-two']);
  });
});

describe('verification', () => {
  it('makes the subscribe GET and reports the echoed challenge', async () => {
    await start();
    const ok = await api.verifyWebhook('verify-me');
    expect(ok).toMatchObject({ status: 200, verified: true });
    expect(ok.body).toBe(ok.challenge);
    const [get] = receiver.hits;
    const query = new URL(get?.url ?? '', 'http://x').searchParams;
    expect(get?.method).toBe('GET');
    expect(query.get('hub.mode')).toBe('subscribe');
    expect(query.get('hub.challenge')).toMatch(/^\d+$/);
    expect(query.get('hub.verify_token')).toBe('verify-me');
    // The token set with the webhook is the default.
    expect((await api.verifyWebhook()).verified).toBe(true);

    const wrong = await api.verifyWebhook('not-it');
    expect(wrong).toMatchObject({ status: 403, verified: false });
  });
});

describe('inbound message shapes', () => {
  it('carries each kind of user message as the network does', async () => {
    await start();
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const quoted = 'wamid.QUOTED';
    const inputs = [
      { type: 'video', data: bytes, caption: 'clip' },
      { type: 'audio', data: bytes, voice: true },
      { type: 'document', data: bytes, filename: 'a.pdf', caption: 'doc' },
      { type: 'sticker', data: bytes },
      { type: 'location', latitude: 37.44, longitude: -122.16, name: 'Place', address: 'Street 1' },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Ann Lee', first_name: 'Ann' }, phones: [{ phone: '+1 650 555 0000', wa_id: '16505550000', type: 'CELL' }] }] },
      { type: 'reaction', messageId: quoted, emoji: '👍' },
      { type: 'text', text: 'a reply', replyTo: quoted },
      { type: 'interactive', buttonReply: { id: 'yes', title: 'Yes' } },
      { type: 'button', text: 'Stop', payload: 'STOP' },
      { type: 'unsupported' },
    ] as const;
    for (const input of inputs) await api.customerMessage(NUMBER.phoneNumberId, USER, input as never);
    await receiver.waitFor(inputs.length);
    const [video, audio, document, sticker, location, contacts, reaction, reply, interactive, button, unsupported] = messagesOf(receiver);
    const mediaFields = { mime_type: expect.any(String), sha256: expect.any(String), id: expect.stringMatching(/^\d+$/) };
    expect(video?.video).toEqual({ caption: 'clip', ...mediaFields, mime_type: 'video/mp4' });
    expect(audio?.audio).toEqual({ ...mediaFields, mime_type: 'audio/ogg; codecs=opus', voice: true });
    expect(document?.document).toEqual({ caption: 'doc', filename: 'a.pdf', ...mediaFields, mime_type: 'application/pdf' });
    expect(sticker?.sticker).toEqual({ ...mediaFields, mime_type: 'image/webp', animated: false });
    expect(location?.location).toEqual({ latitude: 37.44, longitude: -122.16, name: 'Place', address: 'Street 1' });
    expect(contacts?.contacts[0].phones[0].wa_id).toBe('16505550000');
    expect(reaction?.reaction).toEqual({ message_id: quoted, emoji: '👍' });
    expect(reply?.context).toEqual({ from: NUMBER.displayPhoneNumber, id: quoted });
    expect(Object.keys(reply ?? {})).toEqual(['context', 'from', 'id', 'timestamp', 'type', 'text']);
    expect(interactive?.interactive).toEqual({ type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } });
    expect(button?.button).toEqual({ payload: 'STOP', text: 'Stop' });
    expect(unsupported?.errors[0].code).toBe(131051);
    expect(messagesOf(receiver).map((m) => m.type)).toEqual(inputs.map((i) => i.type));
  });

  it('refuses bad programmatic input', async () => {
    await start();
    await expect(api.customerMessage('999', USER, 'x')).rejects.toThrow(/no number/);
    await expect(api.customerMessage(NUMBER.phoneNumberId, 'abc', 'x')).rejects.toThrow(/digits/);
    await expect(api.customerMessage(NUMBER.phoneNumberId, USER, { type: 'document', data: new Uint8Array(1), filename: '' })).rejects.toThrow(/filename/);
  });
});
