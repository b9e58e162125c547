// The messages endpoint, the number endpoint, tokens and the 24-hour window, over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CloudApi } from './index.js';
import { NUMBER, USER, graph, sendText, setup, statusesOf, type Receiver } from './test-helpers.js';

const MESSAGES = `/v23.0/${NUMBER.phoneNumberId}/messages`;

let api: CloudApi;
let receiver: Receiver;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ api, receiver, close } = await setup());
});
afterEach(async () => close());

/** Field by field against the notes' error example: message "(#code) …", type, code, error_data, fbtrace_id. */
function expectMessagingError(json: any, code: number) {
  expect(Object.keys(json)).toEqual(['error']);
  expect(Object.keys(json.error)).toEqual(['message', 'type', 'code', 'error_data', 'fbtrace_id']);
  expect(json.error.message).toMatch(new RegExp(`^\\(#${code}\\) \\S`));
  expect(json.error.type).toBe('OAuthException');
  expect(json.error.code).toBe(code);
  expect(Object.keys(json.error.error_data)).toEqual(['messaging_product', 'details']);
  expect(json.error.error_data.messaging_product).toBe('whatsapp');
  expect(typeof json.error.error_data.details).toBe('string');
  expect(json.error.fbtrace_id).toMatch(/^[A-Za-z0-9_-]{10,}$/);
}

describe('sending', () => {
  it('accepts a text inside the window with the documented success body', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    const before = Date.now();
    const res = await sendText(api, 'hi');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.json)).toEqual(['messaging_product', 'contacts', 'messages']);
    expect(res.json.messaging_product).toBe('whatsapp');
    expect(res.json.contacts).toEqual([{ input: USER, wa_id: USER }]);
    expect(res.json.messages).toHaveLength(1);
    // Free-form messages get no message_status; it is only answered for templates.
    expect(Object.keys(res.json.messages[0])).toEqual(['id']);
    const wamid = res.json.messages[0].id as string;
    expect(wamid).toMatch(/^wamid\.HBg[A-Za-z0-9+/]+=*$/);

    const [sent] = api.sent();
    expect(sent).toMatchObject({ wamid, phoneNumberId: NUMBER.phoneNumberId, to: USER, waId: USER, type: 'text', version: 'v23.0' });
    expect(sent?.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: USER, type: 'text', text: { body: 'hi' } });
    expect(JSON.parse(sent?.raw ?? '')).toEqual(sent?.body);
    expect(sent?.at).toBeGreaterThanOrEqual(before);
    expect(sent?.at).toBeLessThanOrEqual(Date.now());
  });

  it('gives every send a fresh wamid and keeps `to` as given in contacts[].input', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    const a = await sendText(api, 'one', '+1 (650) 555-1234');
    const b = await sendText(api, 'two');
    expect(a.json.contacts).toEqual([{ input: '+1 (650) 555-1234', wa_id: USER }]);
    expect(a.json.messages[0].id).not.toBe(b.json.messages[0].id);
    expect(api.sent().map((s) => s.waId)).toEqual([USER, USER]);
  });

  it('defaults type to text and accepts a reply context', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    const res = await graph(api, 'POST', MESSAGES, { messaging_product: 'whatsapp', to: USER, text: { body: 'x' }, context: { message_id: 'wamid.QUOTED' } });
    expect(res.status).toBe(200);
    expect(api.sent()[0]).toMatchObject({ type: 'text', body: { context: { message_id: 'wamid.QUOTED' } } });
  });

  it('accepts media by link or by id, captions where allowed, a document filename and a voice flag', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    const bodies = [
      { type: 'image', image: { link: 'https://h.example/a.jpg', caption: 'c' } },
      { type: 'image', image: { id: '1003383421387256' } },
      { type: 'video', video: { link: 'https://h.example/a.mp4', caption: 'c' } },
      { type: 'audio', audio: { link: 'https://h.example/a.ogg', voice: true } },
      { type: 'document', document: { link: 'https://h.example/a.pdf', caption: 'c', filename: 'a.pdf' } },
      { type: 'sticker', sticker: { id: '1003383421387257' } },
      { type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } },
      { type: 'location', location: { latitude: 37.44, longitude: -122.16 } },
    ];
    for (const body of bodies) {
      const res = await graph(api, 'POST', MESSAGES, { messaging_product: 'whatsapp', to: USER, ...body });
      expect(res.status, JSON.stringify(body)).toBe(200);
    }
    expect(api.sent().map((s) => s.type)).toEqual(['image', 'image', 'video', 'audio', 'document', 'sticker', 'reaction', 'location']);
  });

  it('accepts a template outside the window, answering message_status accepted', async () => {
    const res = await graph(api, 'POST', MESSAGES, {
      messaging_product: 'whatsapp',
      to: USER,
      type: 'template',
      template: { name: 'hello_world', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ann' }] }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.messages[0]).toEqual({ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' });
  });

  it('takes a text of exactly 4096 characters', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    expect((await sendText(api, 'x'.repeat(4096))).status).toBe(200);
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    ['no messaging_product', { to: USER, type: 'text', text: { body: 'x' } }, /messaging_product is required/],
    ['another messaging_product', { messaging_product: 'sms', to: USER, text: { body: 'x' } }, /messaging_product must be one of/],
    ['no to', { messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } }, /parameter to is required/],
    ['a to that is no number', { messaging_product: 'whatsapp', to: 'abc', text: { body: 'x' } }, /to is not a valid phone number/],
    ['an unknown type', { messaging_product: 'whatsapp', to: USER, type: 'carousel' }, /type must be one of/],
    ['type text without text', { messaging_product: 'whatsapp', to: USER, type: 'text' }, /parameter text is required/],
    ['an empty body', { messaging_product: 'whatsapp', to: USER, text: { body: '' } }, /text\['body'\] must be a non-empty string/],
    ['a body over 4096', { messaging_product: 'whatsapp', to: USER, text: { body: 'x'.repeat(4097) } }, /at most 4096 characters/],
    ['an image with neither link nor id', { messaging_product: 'whatsapp', to: USER, type: 'image', image: { caption: 'c' } }, /exactly one of link or id/],
    ['an image with link and id', { messaging_product: 'whatsapp', to: USER, type: 'image', image: { link: 'https://h/a.jpg', id: '1' } }, /exactly one of link or id/],
    ['a link that is no URL', { messaging_product: 'whatsapp', to: USER, type: 'video', video: { link: 'a.mp4' } }, /valid http\(s\) URL/],
    ['an audio caption', { messaging_product: 'whatsapp', to: USER, type: 'audio', audio: { link: 'https://h/a.ogg', caption: 'c' } }, /Unexpected key "caption" on param "audio"/],
    ['a sticker caption', { messaging_product: 'whatsapp', to: USER, type: 'sticker', sticker: { id: '1', caption: 'c' } }, /Unexpected key "caption" on param "sticker"/],
    ['a caption over 1024', { messaging_product: 'whatsapp', to: USER, type: 'image', image: { link: 'https://h/a.jpg', caption: 'c'.repeat(1025) } }, /at most 1024/],
    ['an empty document filename', { messaging_product: 'whatsapp', to: USER, type: 'document', document: { link: 'https://h/a.pdf', filename: ' ' } }, /filename/],
    ['a filename on an image', { messaging_product: 'whatsapp', to: USER, type: 'image', image: { link: 'https://h/a.jpg', filename: 'a.jpg' } }, /Unexpected key "filename"/],
    ['a template without name', { messaging_product: 'whatsapp', to: USER, type: 'template', template: { language: { code: 'en' } } }, /template\['name'\] is required/],
    ['a template without language', { messaging_product: 'whatsapp', to: USER, type: 'template', template: { name: 'a' } }, /template\['language'\] is required/],
    ['a template language without code', { messaging_product: 'whatsapp', to: USER, type: 'template', template: { name: 'a', language: {} } }, /template\['language'\]\['code'\] is required/],
    ['template components not a list', { messaging_product: 'whatsapp', to: USER, type: 'template', template: { name: 'a', language: { code: 'en' }, components: {} } }, /components'\] must be an array/],
    ['a component without type', { messaging_product: 'whatsapp', to: USER, type: 'template', template: { name: 'a', language: { code: 'en' }, components: [{}] } }, /\[0\]\['type'\] is required/],
    ['a context without message_id', { messaging_product: 'whatsapp', to: USER, text: { body: 'x' }, context: {} }, /context\['message_id'\] is required/],
    ['a group recipient', { messaging_product: 'whatsapp', recipient_type: 'group', to: USER, text: { body: 'x' } }, /recipient_type must be one of/],
    ['contacts without a formatted name', { messaging_product: 'whatsapp', to: USER, type: 'contacts', contacts: [{ name: {} }] }, /formatted_name/],
    ['contact phones that are no list', { messaging_product: 'whatsapp', to: USER, type: 'contacts', contacts: [{ name: { formatted_name: 'A' }, phones: '1' }] }, /\['phones'\] must be an array/],
    ['a reaction without message_id', { messaging_product: 'whatsapp', to: USER, type: 'reaction', reaction: { emoji: '👍' } }, /reaction\['message_id'\] is required/],
    ['a location without longitude', { messaging_product: 'whatsapp', to: USER, type: 'location', location: { latitude: 1 } }, /location\['longitude'\] is required/],
    ['a read mark without message_id', { messaging_product: 'whatsapp', status: 'read' }, /message_id is required/],
    ['a status other than read', { messaging_product: 'whatsapp', status: 'delivered', message_id: 'wamid.X' }, /status must be one of \{READ\}/],
    ['a typing indicator that is no object', { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.X', typing_indicator: 'text' }, /typing_indicator must be a JSON object/],
    ['a typing indicator without type', { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.X', typing_indicator: {} }, /typing_indicator\['type'\] is required/],
    ['a typing indicator of another type', { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.X', typing_indicator: { type: 'audio' } }, /must be one of \{TEXT\}/],
    ['a list for a body', [1, 2], /must be a JSON object/],
    ['text that is no JSON', '{"messaging_product":', /not valid JSON/],
  ];
  it.each(invalid)('refuses %s with error 100, HTTP 400', async (_name, body, detail) => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    const res = await graph(api, 'POST', MESSAGES, body);
    expect(res.status).toBe(400);
    expectMessagingError(res.json, 100);
    expect(res.json.error.message).toBe('(#100) Invalid parameter');
    expect(res.json.error.error_data.details).toMatch(detail);
    expect(res.headers.get('www-authenticate')).toBe('OAuth "Facebook Platform" "invalid_request" "(#100) Invalid parameter"');
    expect(api.sent()).toEqual([]);
    expect(api.readMarks()).toEqual([]);
  });

  it('accepts contact cards, a reaction taken back, a reply to media, and a read mark with the typing indicator', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    const contacts = [{ name: { formatted_name: 'Ann Lee', first_name: 'Ann' }, phones: [{ phone: '+1 555 0100', type: 'CELL', wa_id: '15550100' }] }];
    const bodies = [
      { type: 'contacts', contacts },
      { type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '' } },
      { type: 'image', image: { link: 'https://h.example/a.jpg' }, context: { message_id: 'wamid.Q' } },
    ];
    for (const body of bodies) expect((await graph(api, 'POST', MESSAGES, { messaging_product: 'whatsapp', to: USER, ...body })).status).toBe(200);
    expect(api.sent().map((sent) => [sent.type, sent.body])).toEqual(bodies.map((body) => [body.type, { messaging_product: 'whatsapp', to: USER, ...body }]));
    const read = await graph(api, 'POST', MESSAGES, { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN', typing_indicator: { type: 'text' } });
    expect(read).toMatchObject({ status: 200, json: { success: true } });
    expect(api.readMarks()).toMatchObject([{ phoneNumberId: NUMBER.phoneNumberId, messageId: 'wamid.IN', typingIndicator: true }]);
  });
});

describe('documented errors on demand', () => {
  const table: Array<[number, number]> = [
    [131026, 400],
    [131047, 400],
    [130429, 400],
    [131056, 400],
    [100, 400],
    [368, 403],
    [4, 429],
    [80007, 400],
    [131049, 400],
  ];
  it.each(table)('failNext %i answers the documented body with HTTP %i, then sends go through again', async (code, status) => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    api.failNext(NUMBER.phoneNumberId, { code: code as 100 });
    const res = await sendText(api);
    expect(res.status).toBe(status);
    expectMessagingError(res.json, code);
    expect((await sendText(api)).status).toBe(200);
    expect(api.sent()).toHaveLength(1);
  });

  it('words 130429 exactly as the notes quote it', async () => {
    api.failNext(NUMBER.phoneNumberId, { code: 130429 });
    const res = await sendText(api);
    expect(res.json.error.message).toBe('(#130429) Rate limit hit');
    expect(res.json.error.error_data.details).toBe(
      'Message failed to send because there were too many messages sent from this phone number in a short period of time',
    );
  });

  it('adds the deprecated error_subcode only below v16.0', async () => {
    api.failNext(NUMBER.phoneNumberId, { code: 130429, times: 2 });
    const old = await graph(api, 'POST', `/v15.0/${NUMBER.phoneNumberId}/messages`, { messaging_product: 'whatsapp', to: USER, text: { body: 'x' } });
    expect(old.json.error.error_subcode).toBe(2494055);
    expect(Object.keys(old.json.error)).toEqual(['message', 'type', 'code', 'error_data', 'error_subcode', 'fbtrace_id']);
    const current = await sendText(api);
    expect(current.json.error).not.toHaveProperty('error_subcode');
  });

  it('failNext 190 answers the expired-token body with HTTP 401', async () => {
    api.failNext(NUMBER.phoneNumberId, { code: 190 });
    const res = await sendText(api);
    expect(res.status).toBe(401);
    expect(Object.keys(res.json.error)).toEqual(['message', 'type', 'code', 'error_subcode', 'fbtrace_id']);
    expect(res.json.error).toMatchObject({ type: 'OAuthException', code: 190, error_subcode: 463 });
  });

  it('repeats a failure `times` times and takes another HTTP status when told', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    api.failNext(NUMBER.phoneNumberId, { code: 130429, times: 2, status: 429 });
    expect((await sendText(api)).status).toBe(429);
    expect((await sendText(api)).status).toBe(429);
    expect((await sendText(api)).status).toBe(200);
  });

  it('does not spend a scripted failure on marking a message read', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    api.failNext(NUMBER.phoneNumberId, { code: 131026 });
    const read = await graph(api, 'POST', MESSAGES, { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN' });
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ success: true });
    expect(api.readMarks()).toMatchObject([{ phoneNumberId: NUMBER.phoneNumberId, messageId: 'wamid.IN', typingIndicator: false }]);
    expect((await sendText(api)).status).toBe(400);
  });
});

describe('tokens and objects', () => {
  it('answers a missing token with 190, HTTP 401', async () => {
    const res = await sendText(api, 'x', USER, null);
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: expect.any(String) },
    });
    expect(res.headers.get('www-authenticate')).toMatch(/^OAuth "Facebook Platform" "invalid_token" /);
  });

  it('answers an unknown token the same way', async () => {
    const res = await sendText(api, 'x', USER, 'EAAG-wrong');
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe(190);
    expect(api.sent()).toEqual([]);
  });

  it('answers an expired token with 190/463 until it is replaced; the old one stays refused', async () => {
    api.openWindow(NUMBER.phoneNumberId, USER);
    api.expireToken(NUMBER.phoneNumberId);
    const expired = await sendText(api);
    expect(expired.status).toBe(401);
    expect(expired.json.error).toMatchObject({ type: 'OAuthException', code: 190, error_subcode: 463 });
    expect(expired.json.error.message).toMatch(/^Error validating access token: Session has expired on /);
    expect((await graph(api, 'GET', `/v23.0/${NUMBER.phoneNumberId}`)).status).toBe(401);

    api.replaceToken(NUMBER.phoneNumberId, 'EAAG-token-two');
    expect((await sendText(api, 'x', USER, 'EAAG-token-two')).status).toBe(200);
    expect((await sendText(api)).status).toBe(401);
  });

  it('answers an unknown phone-number-id with GraphMethodException 100/33, HTTP 400', async () => {
    const res = await graph(api, 'POST', '/v23.0/999999999999/messages', { messaging_product: 'whatsapp', to: USER, text: { body: 'x' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        message:
          "Unsupported post request. Object with ID '999999999999' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api",
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        fbtrace_id: expect.any(String),
      },
    });
  });

  it('lets a token act for the numbers of its own business account only', async () => {
    api.addNumber({ ...NUMBER, phoneNumberId: '200000000000001', displayPhoneNumber: '15550000001', accessToken: 'EAAG-same-waba' });
    api.addNumber({ phoneNumberId: '300000000000001', displayPhoneNumber: '15550000002', accessToken: 'EAAG-other', appSecret: 's', businessAccountId: '999' });
    expect((await graph(api, 'GET', '/v23.0/200000000000001')).status).toBe(200);
    const other = await graph(api, 'GET', '/v23.0/300000000000001');
    expect(other.status).toBe(400);
    expect(other.json.error).toMatchObject({ type: 'GraphMethodException', code: 100, error_subcode: 33 });
    expect(other.json.error.message).toMatch(/^Unsupported get request\. Object with ID '300000000000001'/);
  });

  it('answers GET /<phone-number-id> with the number’s fields', async () => {
    const res = await graph(api, 'GET', `/v23.0/${NUMBER.phoneNumberId}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      verified_name: 'Sheena Shop',
      code_verification_status: 'VERIFIED',
      display_phone_number: '+1 555-078-3881',
      quality_rating: 'GREEN',
      platform_type: 'CLOUD_API',
      throughput: { level: 'STANDARD' },
      id: NUMBER.phoneNumberId,
    });
    const picked = await graph(api, 'GET', `/v23.0/${NUMBER.phoneNumberId}?fields=display_phone_number,verified_name`);
    expect(picked.json).toEqual({ display_phone_number: '+1 555-078-3881', verified_name: 'Sheena Shop', id: NUMBER.phoneNumberId });
    const unknown = await graph(api, 'GET', `/v23.0/${NUMBER.phoneNumberId}?fields=colour`);
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe(100);
    expect((await graph(api, 'GET', `/v23.0/${NUMBER.phoneNumberId}`, undefined, 'nope')).status).toBe(401);
  });

  it('prints other countries’ numbers with their country code apart', async () => {
    api.addNumber({ ...NUMBER, phoneNumberId: '200000000000002', displayPhoneNumber: '5511912345678' });
    expect((await graph(api, 'GET', '/v23.0/200000000000002')).json.display_phone_number).toBe('+55 11 91234-5678');
  });

  it('accepts any vNN.N by default and only the configured version when one is set', async () => {
    expect((await graph(api, 'GET', `/v18.0/${NUMBER.phoneNumberId}`)).status).toBe(200);
    const noVersion = await graph(api, 'GET', `/${NUMBER.phoneNumberId}`);
    expect(noVersion.status).toBe(400);
    expect(noVersion.json.error.code).toBe(2500);

    const { api: pinned, close: closePinned } = await setup({ version: 'v23.0' });
    try {
      expect((await graph(pinned, 'GET', `/v23.0/${NUMBER.phoneNumberId}`)).status).toBe(200);
      const other = await graph(pinned, 'GET', `/v22.0/${NUMBER.phoneNumberId}`);
      expect(other.status).toBe(400);
      expect(other.json.error).toMatchObject({ type: 'OAuthException', code: 2500 });
    } finally {
      await closePinned();
    }
  });

  it('records every request with its arrival time and answer', async () => {
    await sendText(api);
    await graph(api, 'GET', `/v23.0/${NUMBER.phoneNumberId}`);
    const requests = await api.waitForRequests(2);
    expect(requests.map((r) => [r.method, r.path, r.status, r.phoneNumberId])).toEqual([
      ['POST', MESSAGES, 400, NUMBER.phoneNumberId],
      ['GET', `/v23.0/${NUMBER.phoneNumberId}`, 200, NUMBER.phoneNumberId],
    ]);
    expect(requests.every((r) => Number.isInteger(r.at) && r.at <= Date.now())).toBe(true);
  });
});

describe('the 24-hour window', () => {
  it('refuses free-form to a user who never wrote with 131047, HTTP 400', async () => {
    const res = await sendText(api);
    expect(res.status).toBe(400);
    expectMessagingError(res.json, 131047);
    expect(res.json.error.message).toBe('(#131047) Re-engagement message');
  });

  it('opens with a user message and closes 24 h after the last one', async () => {
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'hello');
    expect((await sendText(api)).status).toBe(200);

    api.openWindow(NUMBER.phoneNumberId, USER, Date.now() - 24 * 3600 * 1000 - 1000);
    expect((await sendText(api)).json.error.code).toBe(131047);
    api.openWindow(NUMBER.phoneNumberId, USER, Date.now() - 23 * 3600 * 1000);
    expect((await sendText(api)).status).toBe(200);
    api.closeWindow(NUMBER.phoneNumberId, USER);
    expect((await sendText(api)).status).toBe(400);
  });

  it('is per user and per number', async () => {
    api.addNumber({ ...NUMBER, phoneNumberId: '200000000000003', displayPhoneNumber: '15550000003' });
    await api.customerMessage(NUMBER.phoneNumberId, USER, 'hello');
    expect((await sendText(api, 'x', '16505550000')).status).toBe(400);
    const otherNumber = await graph(api, 'POST', '/v23.0/200000000000003/messages', { messaging_product: 'whatsapp', to: USER, text: { body: 'x' } });
    expect(otherNumber.status).toBe(400);
  });

  it('is not opened by a template the business sends', async () => {
    const template = { messaging_product: 'whatsapp', to: USER, type: 'template', template: { name: 'hello_world', language: { code: 'en_US' } } };
    expect((await graph(api, 'POST', MESSAGES, template)).status).toBe(200);
    expect((await sendText(api)).status).toBe(400);
  });

  it('in async mode accepts and reports failed 131047 by webhook instead', async () => {
    api.setWindowMode('async');
    const res = await sendText(api);
    expect(res.status).toBe(200);
    const wamid = res.json.messages[0].id;
    await receiver.waitFor(1);
    const [status] = statusesOf(receiver, wamid);
    expect(status).toMatchObject({ id: wamid, status: 'failed', recipient_id: USER, errors: [{ code: 131047, title: 'Re-engagement message' }] });
    expect(statusesOf(receiver)).toHaveLength(1);
  });
});
