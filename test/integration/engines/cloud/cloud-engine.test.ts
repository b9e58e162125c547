import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually } from '../../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../../kit/gateway.js';
import { type Client, client } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { startReceiver } from '../../../helpers/receiver.js';
import { startTcpProxy } from '../../../helpers/tcp-proxy.js';
import { type CloudApi, serialize, signature256, startCloudApi } from '../../../networks/cloud-api/index.js';
import { cloudWorld } from '../../../kit/worlds/cloud.js';
import { PNG_1PX } from '../../../kit/files.js';

const VERIFY_TOKEN = `verify-${randomBytes(8).toString('hex')}`;

let sequence = 0;
/** A business number registered with the local API, with credentials no other test uses. */
function newNumber(cloud: CloudApi) {
  sequence++;
  const credentials = {
    phoneNumberId: `10${Date.now() % 1_000_000_000}${sequence}`,
    accessToken: `EAAG-token-${randomBytes(12).toString('hex')}`,
    appSecret: `app-secret-${randomBytes(12).toString('hex')}`,
  };
  const display = `1555${String(1_000_000 + ((Date.now() + sequence) % 9_000_000)).slice(0, 7)}`;
  cloud.addNumber({ ...credentials, displayPhoneNumber: display });
  return { credentials, phone: `+${display}` };
}

let userSequence = 0;
const newUser = () => `4420${String(Date.now() % 10_000_000).padStart(7, '0')}${userSequence++ % 10}`;

describe.each(MODES)('CHAT-CLOUD against the local business API — $name', (mode) => {
  /** Every secret the suite gave the gateway: none may appear in an answer, a log line or a webhook. */
  const secrets: string[] = [];
  const answers: string[] = [];
  /** Every answer is kept, to be searched for the credentials at the end. */
  function recording(plain: Client): Client {
    const api = {
      ...plain,
      request: async (...args: Parameters<Client['request']>) => {
        const response = await plain.request(...args);
        answers.push(response.text);
        return response;
      },
    } as Client;
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      (api as Record<string, unknown>)[method] = (path: string, options?: object) => api.request(method.toUpperCase(), path, options);
    }
    api.graphql = async (query, variables = {}, options = {}) => api.request('POST', '/graphql', { ...options, body: { query, variables } });
    return api;
  }
  const world = cloudWorld(mode, {
    cloud: { statusDelayMs: 20 },
    verifyToken: VERIFY_TOKEN,
    wrapClient: recording,
    files: { '/picture.png': { type: 'image/png', body: PNG_1PX } },
    // Kept media (docs/media.md) in both modes: the folder store (PostgreSQL mode gets a folder of its own).
    env: { MEDIA_STORE: 'folder' },
  });

  const statusOf = async (messageId: string) => (await world.api.get(`/v1/messages/status/${messageId}`, { key: world.tenant.liveKey })).body.data;
  const v1Detail = async (id: string) => (await world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey })).body.data;
  const hooks = (event: string, messageId?: string) =>
    world.receiver
      .of(event)
      .map((r) => JSON.parse(r.body))
      .filter((body) => messageId === undefined || body.data?.messageId === messageId);

  /** A connected v1 instance on a new number, its webhooks going to the receiver. */
  async function connectedV1(name: string, extra: Record<string, unknown> = {}) {
    const number = newNumber(world.cloud);
    secrets.push(number.credentials.accessToken, number.credentials.appSecret);
    const created = await world.api.post('/v1/chat/instances', {
      key: world.tenant.liveKey,
      body: { name, integration: 'CHAT-CLOUD', cloud: number.credentials, webhookUrl: world.receiver.url, ...extra },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    await eventually(() => v1Detail(id), (d) => d.status === 'connected', 10_000);
    return { id, ...number };
  }

  it('creates v1, session and GraphQL instances with credentials: 201 at once without a QR code, then connected as the number', async () => {
    const number = newNumber(world.cloud);
    secrets.push(number.credentials.accessToken, number.credentials.appSecret);
    const created = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `v1 cloud ${sequence}`, integration: 'CHAT-CLOUD', cloud: number.credentials } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.qrCode).toBeNull();
    const detail = await eventually(() => v1Detail(created.body.data.id), (d) => d.status === 'connected', 10_000);
    expect(detail).toMatchObject({ integration: 'CHAT-CLOUD', phoneNumber: number.phone, lastDisconnect: null });
    // Checked with GET /<version>/<phone-number-id> and the number's token.
    expect(world.cloud.requests().some((r) => r.method === 'GET' && r.path === `/v23.0/${number.credentials.phoneNumberId}` && r.status === 200)).toBe(true);

    const second = newNumber(world.cloud);
    secrets.push(second.credentials.accessToken, second.credentials.appSecret);
    const session = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `session cloud ${sequence}`, integration: 'CHAT-CLOUD', cloud: second.credentials } });
    expect(session.status, session.text).toBe(201);
    const sessionDetail = await eventually(
      () => world.api.get(`/chat/instances/${session.body.data.instanceId}`, { cookie: world.tenant.cookie }),
      (r) => r.body.data.status === 'connected',
      10_000,
    );
    expect(sessionDetail.body.data).toMatchObject({ phone: second.phone, integration: 'CHAT-CLOUD' });
    expect(sessionDetail.body.data.qrCode).toBeUndefined();

    const third = newNumber(world.cloud);
    secrets.push(third.credentials.accessToken, third.credentials.appSecret);
    const byGraphql = await world.api.graphql(
      `mutation($input: CreateInstanceInput!) { createInstance(input: $input) { instance { id integration } qrCode { attemptId } userErrors { code field message } } }`,
      { input: { name: `graphql cloud ${sequence}`, integration: 'CHAT-CLOUD', cloud: third.credentials } },
      { cookie: world.tenant.cookie },
    );
    expect(byGraphql.body.errors).toBeUndefined();
    expect(byGraphql.body.data.createInstance).toMatchObject({ qrCode: null, userErrors: [], instance: { integration: 'CHAT-CLOUD' } });
    await eventually(() => v1Detail(byGraphql.body.data.createInstance.instance.id), (d) => d.status === 'connected' && d.phoneNumber === third.phone, 10_000);
  });

  it('refuses incomplete credentials with 400 naming each missing field, and credentials for an engine that pairs', async () => {
    const full = { phoneNumberId: '123456', accessToken: 'x-token', appSecret: 'x-secret' };
    for (const field of ['phoneNumberId', 'accessToken', 'appSecret'] as const) {
      const { [field]: _left, ...rest } = full;
      const v1 = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `missing ${field}`, integration: 'CHAT-CLOUD', cloud: rest } });
      expect(v1.status).toBe(400);
      expect(v1.body.error).toMatchObject({ code: 'invalid_request' });
      expect(v1.body.error.message).toContain(`cloud.${field}`);
      const session = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `missing ${field}`, integration: 'CHAT-CLOUD', cloud: rest } });
      expect(session.status).toBe(400);
      expect(session.body.error.message).toContain(`cloud.${field}`);
    }
    const none = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: 'no credentials', integration: 'CHAT-CLOUD' } });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('cloud');
    const wrongEngine = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: 'sandbox with cloud', integration: 'CHAT-SANDBOX', cloud: full } });
    expect(wrongEngine.status).toBe(400);
    expect(wrongEngine.body.error.message).toContain('cloud');
    const notDigits = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: 'bad id', integration: 'CHAT-CLOUD', cloud: { ...full, phoneNumberId: 'abc' } } });
    expect(notDigits.status).toBe(400);
    expect(notDigits.body.error.message).toContain('cloud.phoneNumberId');
    const byGraphql = await world.api.graphql(
      `mutation($input: CreateInstanceInput!) { createInstance(input: $input) { instance { id } userErrors { code field message } } }`,
      { input: { name: 'graphql missing', integration: 'CHAT-CLOUD' } },
      { cookie: world.tenant.cookie },
    );
    expect(byGraphql.body.data.createInstance.userErrors[0]).toMatchObject({ code: 'invalid_request', field: ['cloud'] });
  });

  it('a token the API refuses: v1 error and session disconnected, with the reason', async () => {
    const number = newNumber(world.cloud);
    const wrong = { ...number.credentials, accessToken: `EAAG-wrong-${randomBytes(6).toString('hex')}` };
    secrets.push(wrong.accessToken, wrong.appSecret);
    const v1 = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `refused v1 ${sequence}`, integration: 'CHAT-CLOUD', cloud: wrong } });
    expect(v1.status).toBe(201);
    const detail = await eventually(() => v1Detail(v1.body.data.id), (d) => d.status === 'error', 10_000);
    expect(detail.lastDisconnect).toMatchObject({ reason: 'credentials_rejected' });
    const session = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `refused session ${sequence}`, integration: 'CHAT-CLOUD', cloud: wrong } });
    const sessionDetail = await eventually(
      () => world.api.get(`/chat/instances/${session.body.data.instanceId}`, { cookie: world.tenant.cookie }),
      (r) => r.body.data.lastDisconnect !== null,
      10_000,
    );
    expect(sessionDetail.body.data).toMatchObject({ status: 'disconnected', lastDisconnect: { reason: 'credentials_rejected' } });
    // The right token by PUT: checked again, connected.
    const put = await world.api.put(`/v1/chat/instances/${v1.body.data.id}`, { key: world.tenant.liveKey, body: { cloud: { accessToken: number.credentials.accessToken } } });
    expect(put.status, put.text).toBe(200);
    await eventually(() => v1Detail(v1.body.data.id), (d) => d.status === 'connected' && d.phoneNumber === number.phone, 10_000);
    // And by GraphQL, for the session instance.
    const updated = await world.api.graphql(
      `mutation($input: UpdateInstanceInput!) { updateInstance(input: $input) { instance { id } userErrors { code field message } } }`,
      { input: { id: session.body.data.instanceId, cloud: { accessToken: number.credentials.accessToken } } },
      { cookie: world.tenant.cookie },
    );
    expect(updated.body.data.updateInstance.userErrors).toEqual([]);
    await eventually(() => v1Detail(session.body.data.instanceId), (d) => d.status === 'connected', 10_000);
  });

  it('QR and pairing-code endpoints answer 409 for a credentials instance, naming why', async () => {
    const { id } = await connectedV1(`no qr ${sequence}`);
    const qr = await world.api.get(`/v1/chat/instances/${id}/qr`, { key: world.tenant.liveKey });
    expect(qr.status).toBe(409);
    expect(qr.body.error.message).toContain('credentials');
    const regenerate = await world.api.post(`/chat/instances/${id}/regenerate-qr`, { cookie: world.tenant.cookie });
    expect(regenerate.status).toBe(409);
    for (const path of [`/v1/chat/instances/${id}/pairing-code`, `/chat/instances/${id}/pairing-code`]) {
      const code = await world.api.post(path, { key: world.tenant.liveKey, cookie: world.tenant.cookie, body: { phone: '+15550001111' } });
      expect(code.status).toBe(409);
      expect(code.body.error.code).toBe('instance_unavailable');
    }
  });

  it('sends text, media by link and templates with the documented bodies; the wamid is the networkMessageId; no [TEST] in templates', async () => {
    const own = await createTenant(world.gw.gateway, world.api);
    const number = newNumber(world.cloud);
    secrets.push(number.credentials.accessToken, number.credentials.appSecret);
    const created = await world.api.post('/v1/chat/instances', { key: own.liveKey, body: { name: 'sender', integration: 'CHAT-CLOUD', cloud: number.credentials } });
    const id = created.body.data.id;
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: own.liveKey }), (r) => r.body.data.status === 'connected', 10_000);
    const user = newUser();
    world.cloud.openWindow(number.credentials.phoneNumberId, user);
    const pnid = number.credentials.phoneNumberId;

    const text = await world.api.post('/v1/messages/send', { key: own.testKey, body: { to: user, text: 'Your order shipped' } });
    expect(text.status, text.text).toBe(200);
    const [textSend] = await world.cloud.waitForSent(1, (s) => s.phoneNumberId === pnid && s.type === 'text');
    expect(textSend!.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: user, type: 'text', text: { preview_url: false, body: '[TEST] Your order shipped' } });
    const sent = await eventually(() => world.api.get(`/v1/messages/status/${text.body.data.id}`, { key: own.liveKey }), (r) => r.body.data.status !== 'queued');
    expect(sent.body.data).toMatchObject({ networkMessageId: textSend!.wamid, mode: 'test' });

    const image = await world.api.post(`/chat/instances/${id}/send-media`, { cookie: own.cookie, body: { to: user, mediaUrl: `${world.files.url}/picture.png`, mediaType: 'image', caption: 'the picture' } });
    expect(image.status, image.text).toBe(200);
    const [imageSend] = await world.cloud.waitForSent(1, (s) => s.phoneNumberId === pnid && s.type === 'image');
    expect(imageSend!.body).toMatchObject({ type: 'image', to: user, image: { link: `${world.files.url}/picture.png`, caption: 'the picture' } });

    const template = { name: 'order_update', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }] };
    const routed = await world.api.post('/v1/messages/send', { key: own.testKey, body: { to: user, template } });
    expect(routed.status, routed.text).toBe(200);
    const throughInstance = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: own.cookie, body: { to: user, template: { name: 'welcome', language: 'en' } } });
    expect(throughInstance.status, throughInstance.text).toBe(200);
    const byGraphql = await world.api.graphql(
      `mutation($input: SendMessageInput!) { sendMessage(input: $input) { message { id status } userErrors { code field message } } }`,
      { input: { to: user, template: { name: 'reminder', language: 'pt_BR', components: [{ type: 'body', parameters: [] }] } } },
      { key: own.liveKey },
    );
    expect(byGraphql.body.errors).toBeUndefined();
    expect(byGraphql.body.data.sendMessage.userErrors).toEqual([]);
    const templates = await world.cloud.waitForSent(3, (s) => s.phoneNumberId === pnid && s.type === 'template');
    expect(templates.map((s) => s.body.template)).toEqual([
      { name: 'order_update', language: { code: 'en_US' }, components: template.components },
      { name: 'welcome', language: { code: 'en' } },
      { name: 'reminder', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [] }] },
    ]);
    expect(JSON.stringify(templates.map((s) => s.body))).not.toContain('[TEST]');
    const templateMessage = await eventually(() => world.api.get(`/v1/messages/status/${routed.body.data.id}`, { key: own.liveKey }), (r) => r.body.data.status !== 'queued');
    expect(templateMessage.body.data).toMatchObject({ type: 'template', text: null, networkMessageId: templates[0]!.wamid });
  });

  it('refuses bad templates with 400, and a template through an instance that pairs', async () => {
    const { id } = await connectedV1(`template checks ${sequence}`);
    const cases: Array<[unknown, string]> = [
      [{ to: '4420000000001', template: { name: 'Bad Name', language: 'en' } }, 'template.name'],
      [{ to: '4420000000001', template: { name: 'ok', language: 'english' } }, 'template.language'],
      [{ to: '4420000000001', template: { name: 'ok', language: 'en', components: 'x' } }, 'template.components'],
      [{ to: '4420000000001', text: 'hi', template: { name: 'ok', language: 'en' } }, 'template'],
      [{ to: '4420000000001' }, 'text'],
    ];
    for (const [body, field] of cases) {
      const answer = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    const both = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: '4420000000001', message: 'hi', template: { name: 'ok', language: 'en' } } });
    expect(both.status).toBe(400);
    const sandbox = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `sandbox ${sequence}`, integration: 'CHAT-SANDBOX' } });
    const onSandbox = await world.api.post(`/chat/instances/${sandbox.body.data.instanceId}/send-text`, { cookie: world.tenant.cookie, body: { to: '4420000000001', template: { name: 'ok', language: 'en' } } });
    expect(onSandbox.status).toBe(400);
    expect(onSandbox.body.error.message).toContain('template');
  });

  it('a text outside the 24-hour window fails with 131047 in the message error', async () => {
    const { id } = await connectedV1(`window ${sequence}`);
    const sent = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: newUser(), message: 'Are you there?' } });
    expect(sent.status).toBe(200);
    const failed = await eventually(() => statusOf(sent.body.data.id), (m) => m.status === 'failed');
    // The API's code, apart from its words: a client sees 131047 and sends a template instead.
    const expected = { code: '131047', message: 'Re-engagement message' };
    expect(failed.error).toEqual(expected);
    expect(failed.timestamps.failed).not.toBeNull();
    const [update] = await eventually(async () => hooks('messages.update', sent.body.data.id).filter((u) => u.data.status === 'failed'), (list) => list.length === 1);
    expect(update.data.error).toEqual(expected);
    const byGraphql = await world.api.graphql('query ($id: ID!) { node(id: $id) { ... on Message { error { code message } } } }', { id: sent.body.data.id }, { key: world.tenant.liveKey });
    expect(byGraphql.body.data.node.error).toEqual(expected);
  });

  it('statuses out of order, read without delivered, repeats: the final status right, each messages.update once per status', async () => {
    const { id, credentials } = await connectedV1(`statuses ${sequence}`);
    const pnid = credentials.phoneNumberId;
    const early = newUser();
    const skipping = newUser();
    world.cloud.openWindow(pnid, early);
    world.cloud.openWindow(pnid, skipping);
    world.cloud.statusScript(pnid, ['delivered', 'sent', 'read', 'delivered', 'read'], { to: early });
    world.cloud.statusScript(pnid, ['sent', 'read', 'read', 'sent'], { to: skipping });
    const first = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: early, message: 'one' } });
    const second = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: skipping, message: 'two' } });
    await world.cloud.waitForSent(2, (s) => s.phoneNumberId === pnid);
    await world.cloud.waitForWebhooksIdle(15_000);
    for (const { body } of [first, second]) {
      const message = await eventually(() => statusOf(body.data.id), (m) => m.status === 'read');
      expect(message.timestamps.delivered).not.toBeNull();
      const updates = await eventually(async () => hooks('messages.update', body.data.id), (list) => list.some((u) => u.data.status === 'read'));
      const statuses = updates.map((u) => u.data.status);
      expect(new Set(statuses).size, statuses.join(',')).toBe(statuses.length);
      expect(statuses.at(-1)).toBe('read');
    }
    expect(hooks('messages.update', second.body.data.id).map((u) => u.data.status).sort()).toEqual(['read', 'sent']);
  });

  it('a failure reported only by webhook fails the message with the API code', async () => {
    const { id, credentials } = await connectedV1(`late failure ${sequence}`);
    const user = newUser();
    world.cloud.openWindow(credentials.phoneNumberId, user);
    world.cloud.statusScript(credentials.phoneNumberId, ['sent', { status: 'failed', code: 131049 }], { to: user });
    const sent = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: user, message: 'marketing' } });
    const failed = await eventually(() => statusOf(sent.body.data.id), (m) => m.status === 'failed', 10_000);
    expect(failed.error).toEqual({ code: '131049', message: 'This message was not delivered to maintain healthy ecosystem engagement.' });
  });

  it('130429: the message stays queued, is retried, and reaches the API once', async () => {
    const { id, credentials } = await connectedV1(`rate limited ${sequence}`);
    const user = newUser();
    world.cloud.openWindow(credentials.phoneNumberId, user);
    world.cloud.failNext(credentials.phoneNumberId, { code: 130429 });
    const sent = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: user, message: 'patience' } });
    await world.cloud.waitForRequests(1, (r) => r.phoneNumberId === credentials.phoneNumberId && r.status === 400);
    expect((await statusOf(sent.body.data.id)).status).toBe('queued');
    const done = await eventually(() => statusOf(sent.body.data.id), (m) => m.status !== 'queued', 10_000);
    expect(done.status).not.toBe('failed');
    expect(world.cloud.sent(credentials.phoneNumberId).filter((s) => s.to === user)).toHaveLength(1);
  });

  it('190: the instance is disconnected with the reason, its queue kept, and sent once a new token comes by PUT', async () => {
    const { id, credentials } = await connectedV1(`expiring ${sequence}`);
    const user = newUser();
    world.cloud.openWindow(credentials.phoneNumberId, user);
    world.cloud.expireToken(credentials.phoneNumberId);
    const first = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: user, message: 'first' } });
    const detail = await eventually(() => v1Detail(id), (d) => d.status === 'disconnected', 10_000);
    expect(detail.lastDisconnect).toMatchObject({ reason: 'token_expired' });
    const second = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: user, message: 'second' } });
    expect(second.status).toBe(200);
    expect((await statusOf(first.body.data.id)).status).toBe('queued');
    const token = `EAAG-new-${randomBytes(8).toString('hex')}`;
    secrets.push(token);
    world.cloud.replaceToken(credentials.phoneNumberId, token);
    const put = await world.api.put(`/chat/instances/${id}`, { cookie: world.tenant.cookie, body: { cloud: { accessToken: token } } });
    expect(put.status, put.text).toBe(200);
    await eventually(() => v1Detail(id), (d) => d.status === 'connected', 10_000);
    const sends = await world.cloud.waitForSent(2, (s) => s.phoneNumberId === credentials.phoneNumberId && s.to === user);
    expect(sends.map((s) => (s.body.text as { body: string }).body)).toEqual(['first', 'second']);
  });

  it('verification: the challenge as text for the right token, 403 in the envelope otherwise', async () => {
    expect(await world.cloud.verifyWebhook()).toMatchObject({ status: 200 });
    const right = await world.api.get(`/webhooks/cloud?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${VERIFY_TOKEN}`);
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(right.text).toBe('1158201444');
    for (const query of [
      `hub.mode=subscribe&hub.challenge=1&hub.verify_token=wrong-token`,
      `hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=${VERIFY_TOKEN}`,
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`,
    ]) {
      const wrong = await world.api.get(`/webhooks/cloud?${query}`);
      expect(wrong.status, query).toBe(403);
      expect(wrong.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    }
  });

  it('refuses webhooks without a signature (401), with a wrong one, one over a re-serialised body or one naming an unregistered number (403, the same answer)', async () => {
    const { credentials } = await connectedV1(`signatures ${sequence}`);
    const envelope = {
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550000000', phone_number_id: credentials.phoneNumberId }, messages: [{ from: newUser(), id: `wamid.${randomBytes(6).toString('hex')}`, timestamp: '1', type: 'text', text: { body: 'Grüße ✓' } }] } }] }],
    };
    const bytes = serialize(envelope);
    const post = (raw: string, signature?: string) =>
      world.api.post('/webhooks/cloud', { raw, headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) } });
    const missing = await post(bytes);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });
    const mismatch = await post(bytes, signature256('another-secret', bytes));
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.error.code).toBe('forbidden');
    // The network signs its escaped bytes; the same JSON written another way is not what it signed.
    const reserialised = JSON.stringify(envelope);
    expect(reserialised).not.toBe(bytes);
    const resigned = await post(reserialised, signature256(credentials.appSecret, bytes));
    expect(resigned.status).toBe(403);
    const unknown = serialize({ ...envelope, entry: [{ ...envelope.entry[0], changes: [{ field: 'messages', value: { ...envelope.entry[0]!.changes[0]!.value, metadata: { display_phone_number: '1', phone_number_id: '999999999999' } } }] }] });
    // A number nobody registered gets the answer of a bad signature, word for word: no caller can tell which numbers are served.
    const unregistered = await post(unknown, signature256(credentials.appSecret, unknown));
    expect(unregistered.status).toBe(403);
    expect(unregistered.body).toEqual(mismatch.body);
    const notJson = await post('{not json', signature256(credentials.appSecret, '{not json'));
    expect(notJson.status).toBe(400);
    const tooLarge = 'x'.repeat(4 * 1024 * 1024 + 10);
    const huge = await post(tooLarge, 'sha256=00');
    expect(huge.status).toBe(413);
    const right = await post(bytes, signature256(credentials.appSecret, bytes));
    expect(right.status, right.text).toBe(200);
    expect(right.body.data).toEqual({ messages: 1, statuses: 0 });
  });

  it('stores every message of every change: two changes with three messages are three messages.upsert', async () => {
    const { id, credentials } = await connectedV1(`batched ${sequence}`);
    const value = (messages: object[]) => ({ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550000000', phone_number_id: credentials.phoneNumberId }, contacts: [], messages } });
    const item = (body: string) => ({ from: newUser(), id: `wamid.${randomBytes(8).toString('hex')}`, timestamp: '1', type: 'text', text: { body } });
    const envelope = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [value([item('first'), item('second')]), value([item('third')])] }] };
    const bytes = serialize(envelope);
    const answer = await world.api.post('/webhooks/cloud', { raw: bytes, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature256(credentials.appSecret, bytes) } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({ messages: 3, statuses: 0 });
    const upserts = hooks('messages.upsert').filter((u) => u.instanceId === id && !u.data.fromMe);
    expect(upserts.length).toBeLessThanOrEqual(3);
    const stored = await eventually(async () => hooks('messages.upsert').filter((u) => u.instanceId === id && !u.data.fromMe), (list) => list.length === 3);
    expect(stored.map((u) => u.data.text).sort()).toEqual(['first', 'second', 'third']);
    // The same bytes again (the network retries): nothing stored twice.
    const again = await world.api.post('/webhooks/cloud', { raw: bytes, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature256(credentials.appSecret, bytes) } });
    expect(again.status).toBe(200);
    const list = await world.api.get('/v1/messages/list?limit=100', { key: world.tenant.liveKey });
    expect(list.body.data.filter((m: { instanceId: string; direction: string }) => m.instanceId === id && m.direction === 'in')).toHaveLength(3);
  });

  it('inbound text, media, location, contacts, reactions and replies from the network become messages.upsert', async () => {
    const { id, credentials } = await connectedV1(`inbound ${sequence}`);
    const pnid = credentials.phoneNumberId;
    const user = newUser();
    world.cloud.openWindow(pnid, user);
    const out = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: world.tenant.cookie, body: { to: user, message: 'to be quoted' } });
    const outbound = await eventually(() => statusOf(out.body.data.id), (m) => m.networkMessageId !== null);
    await world.cloud.customerMessage(pnid, user, { type: 'text', text: 'hello there', profileName: 'Ana' });
    await world.cloud.customerMessage(pnid, user, { type: 'image', data: PNG_1PX, mimeType: 'image/png', caption: 'a picture' });
    await world.cloud.customerMessage(pnid, user, { type: 'location', latitude: 38.72, longitude: -9.14, name: 'Lisbon' });
    await world.cloud.customerMessage(pnid, user, { type: 'contacts', contacts: [{ name: { formatted_name: 'Bob Smith' }, phones: [{ phone: '+1 555 0100' }] }] });
    await world.cloud.customerMessage(pnid, user, { type: 'reaction', messageId: outbound.networkMessageId, emoji: '👍' });
    await world.cloud.customerMessage(pnid, user, { type: 'text', text: 'a reply', replyTo: outbound.networkMessageId });
    await world.cloud.waitForWebhooksIdle(15_000);
    const upserts = await eventually(async () => hooks('messages.upsert').filter((u) => u.instanceId === id && !u.data.fromMe), (list) => list.length === 6);
    const byType = (type: string) => upserts.filter((u) => u.data.type === type);
    expect(byType('text').map((u) => u.data.text).sort()).toEqual(['a reply', 'hello there']);
    expect(byType('text').find((u) => u.data.text === 'hello there')!.data).toMatchObject({ from: user });
    const image = byType('image')[0]!.data;
    expect(image).toMatchObject({ text: 'a picture', media: { type: 'image', mimetype: 'image/png', caption: 'a picture' } });
    // The file stays with the API: the download fetches it with the instance's token, byte for byte.
    const download = await fetch(`${world.gw.url}/v1/messages/${image.messageId}/media`, { headers: { authorization: `Bearer ${world.tenant.liveKey}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^image\/png/);
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG_1PX)).toBe(true);
    expect(byType('location')[0]!.data.location).toMatchObject({ latitude: 38.72, longitude: -9.14, name: 'Lisbon' });
    const card = byType('contact')[0]!.data;
    expect(card).toMatchObject({ text: 'Bob Smith', contacts: [{ displayName: 'Bob Smith' }] });
    expect(card.contacts[0].vcard).toMatch(/^BEGIN:VCARD[\s\S]*FN:Bob Smith[\s\S]*TEL;type=CELL:\+1 555 0100[\s\S]*END:VCARD$/);
    expect(byType('reaction')[0]!.data).toMatchObject({ text: '👍', reaction: { emoji: '👍', networkMessageId: outbound.networkMessageId, messageId: out.body.data.id } });
    expect(byType('text').find((u) => u.data.text === 'a reply')!.data.quoted).toEqual({ networkMessageId: outbound.networkMessageId, messageId: out.body.data.id });
  });

  it('received media is kept: messages.update says stored, and it still downloads once the API no longer serves it', async () => {
    const { id, credentials } = await connectedV1(`kept media ${sequence}`);
    const gone = await startReceiver(() => ({ status: 404 }));
    try {
      const user = newUser();
      await world.cloud.customerMessage(credentials.phoneNumberId, user, { type: 'image', data: PNG_1PX, mimeType: 'image/png', caption: 'kept' });
      const [upsert] = await eventually(async () => hooks('messages.upsert').filter((u) => u.instanceId === id && u.data.from === user), (list) => list.length === 1);
      const messageId = upsert!.data.messageId;
      const [kept] = await eventually(async () => hooks('messages.update', messageId).filter((u) => u.data.media), (list) => list.length > 0);
      expect(kept!.data).toEqual({ messageId, media: { stored: true, sha256: createHash('sha256').update(PNG_1PX).digest('hex'), size: PNG_1PX.length, url: expect.stringMatching(/^\/media\/[\w-]+\?expires=\d+&signature=[\w-]+$/), expiresAt: expect.any(String) } });
      world.cloud.setMediaDownloadBase(gone.url);
      const download = await fetch(`${world.gw.url}/v1/messages/${messageId}/media`, { headers: { authorization: `Bearer ${world.tenant.liveKey}` } });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toMatch(/^image\/png/);
      expect(Buffer.from(await download.arrayBuffer()).equals(PNG_1PX)).toBe(true);
      expect(gone.received).toHaveLength(0);
    } finally {
      world.cloud.setMediaDownloadBase(null);
      await gone.close();
    }
  });

  it("a download URL on a host other than the API's own gets no access token", async () => {
    // It keeps no media: the one fetch from elsewhere is the download's own.
    const { id, credentials } = await connectedV1(`token host ${sequence}`, { media: { keep: 'none' } });
    const elsewhere = await startReceiver(() => ({ status: 404 }));
    secrets.push(credentials.accessToken);
    try {
      const user = newUser();
      await world.cloud.customerMessage(credentials.phoneNumberId, user, { type: 'image', data: PNG_1PX, mimeType: 'image/png' });
      const upsert = await eventually(async () => hooks('messages.upsert').filter((u) => u.instanceId === id && u.data.from === user), (list) => list.length === 1);
      world.cloud.setMediaDownloadBase(elsewhere.url);
      const download = await fetch(`${world.gw.url}/v1/messages/${upsert[0]!.data.messageId}/media`, { headers: { authorization: `Bearer ${world.tenant.liveKey}` } });
      await download.arrayBuffer();
      expect(elsewhere.received).toHaveLength(1);
      expect(elsewhere.received[0]!.headers.authorization).toBeUndefined();
      expect(JSON.stringify(elsewhere.received[0]!.headers)).not.toContain(credentials.accessToken);
    } finally {
      world.cloud.setMediaDownloadBase(null);
      await elsewhere.close();
    }
  });

  it('disconnect stops the instance until a token is given again by PUT; a routed template on a pairing engine fails with a reason', async () => {
    const { id, credentials } = await connectedV1(`disconnecting ${sequence}`);
    const off = await world.api.post(`/chat/instances/${id}/disconnect`, { cookie: world.tenant.cookie });
    expect(off.status).toBe(200);
    await eventually(() => v1Detail(id), (d) => d.status === 'disconnected' && d.phoneNumber === null, 10_000);
    const put = await world.api.put(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey, body: { cloud: { accessToken: credentials.accessToken } } });
    expect(put.status, put.text).toBe(200);
    await eventually(() => v1Detail(id), (d) => d.status === 'connected', 10_000);
    // A token for an instance that pairs is refused by name.
    const sandbox = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `no token here ${sequence}`, integration: 'CHAT-SANDBOX' } });
    const refused = await world.api.put(`/v1/chat/instances/${sandbox.body.data.id}`, { key: world.tenant.liveKey, body: { cloud: { accessToken: 'x' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('cloud');

    const sandboxOnly = await createTenant(world.gw.gateway, world.api);
    await connectedV1Instance(world.api, sandboxOnly.liveKey, 'sandbox line');
    const routed = await world.api.post('/v1/messages/send', { key: sandboxOnly.liveKey, body: { to: newUser(), template: { name: 'welcome', language: 'en' } } });
    expect(routed.status).toBe(200);
    const failed = await eventually(() => world.api.get(`/v1/messages/status/${routed.body.data.id}`, { key: sandboxOnly.liveKey }), (r) => r.body.data.status === 'failed');
    expect(failed.body.data.error).toEqual({ code: 'template_unsupported', message: 'Only CHAT-CLOUD instances send template messages.' });
  });

  it('the credentials never appear in an answer, a GraphQL result, a log line or a webhook', async () => {
    const { id } = await connectedV1(`secretive ${sequence}`);
    await world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey });
    await world.api.get(`/chat/instances/${id}`, { cookie: world.tenant.cookie });
    await world.api.get('/v1/chat/instances', { key: world.tenant.liveKey });
    await world.api.get('/chat/instances', { cookie: world.tenant.cookie });
    const introspected = await world.api.graphql(`{ __type(name: "Instance") { fields { name type { kind ofType { kind } } } } }`, {}, { cookie: world.tenant.cookie });
    const scalarFields = introspected.body.data.__type.fields
      .filter((f: { type: { kind: string; ofType: { kind: string } | null } }) => (f.type.ofType?.kind ?? f.type.kind) === 'SCALAR' || (f.type.ofType?.kind ?? f.type.kind) === 'ENUM')
      .map((f: { name: string }) => f.name);
    const everything = await world.api.graphql(`query($id: ID!) { instance(id: $id) { ${scalarFields.join(' ')} } instances(first: 50) { edges { node { ${scalarFields.join(' ')} } } } }`, { id }, { cookie: world.tenant.cookie });
    expect(everything.body.errors).toBeUndefined();
    expect(secrets.length).toBeGreaterThan(10);
    const logs = world.gw.logs.text();
    const webhooks = world.receiver.received.map((r) => r.body).join('\n');
    const seen = answers.join('\n');
    for (const secret of secrets) {
      expect(seen.includes(secret), 'an answer').toBe(false);
      expect(logs.includes(secret), 'a log line').toBe(false);
      expect(webhooks.includes(secret), 'a webhook').toBe(false);
    }
    // Sealed at rest: the stored bytes hold no secret either.
    const rows = await world.gw.gateway.infra.db.prisma.engineKey.findMany({ where: { type: 'cloud' } });
    expect(rows.length).toBeGreaterThan(5);
    const stored = rows.map((row) => Buffer.from(row.value).toString('latin1')).join('\n');
    for (const secret of secrets) expect(stored.includes(secret)).toBe(false);
  });
});


describe('CHAT-CLOUD: the network callback has its own limit per source address', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(MODES[0]!, { env: { ENGINES: 'cloud', CLOUD_VERIFY_TOKEN: VERIFY_TOKEN, CLOUD_WEBHOOK_PER_MINUTE: '3' } });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('answers 429 with Retry-After in the envelope past CLOUD_WEBHOOK_PER_MINUTE, whatever the request', async () => {
    const api = client(gw.url);
    const verify = `/webhooks/cloud?hub.mode=subscribe&hub.challenge=42&hub.verify_token=${VERIFY_TOKEN}`;
    for (let n = 0; n < 3; n++) expect((await api.get(verify)).status).toBe(200);
    const limited = await api.post('/webhooks/cloud', { raw: '{}', headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, error: { code: 'rate_limit_exceeded' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The tenants' API is not counted against it.
    expect((await api.get('/healthz')).status).toBe(200);
  });
});

describe('CHAT-CLOUD: an outage of the API', () => {
  let cloud: CloudApi;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let gw: TestGateway;

  beforeAll(async () => {
    cloud = await startCloudApi({ statusDelayMs: 20 });
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(cloud.url).port) });
    gw = await startTestGateway(MODES[0]!, {
      env: { ENGINES: 'cloud', CLOUD_API_URL: `http://127.0.0.1:${proxy.port}`, CLOUD_VERIFY_TOKEN: VERIFY_TOKEN, CLOUD_API_TIMEOUT_MS: '2000' },
    });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await proxy?.close();
    await cloud?.close();
  });

  it('keeps the message queued while the API cannot be reached, and sends it once when it is back', async () => {
    const api = client(gw.url);
    const tenant = await createTenant(gw.gateway, api);
    const { credentials } = newNumber(cloud);
    const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'through an outage', integration: 'CHAT-CLOUD', cloud: credentials } });
    await eventually(() => api.get(`/v1/chat/instances/${created.body.data.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected', 10_000);
    const user = newUser();
    cloud.openWindow(credentials.phoneNumberId, user);
    proxy.cut();
    const sent = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: user, text: 'after the outage' } });
    expect(sent.status).toBe(200);
    await eventually(async () => gw.logs.text(), (text) => text.includes('the API is not taking messages now'), 10_000);
    expect((await api.get(`/v1/messages/status/${sent.body.data.id}`, { key: tenant.liveKey })).body.data.status).toBe('queued');
    proxy.restore();
    const done = await eventually(() => api.get(`/v1/messages/status/${sent.body.data.id}`, { key: tenant.liveKey }), (r) => r.body.data.status !== 'queued', 15_000);
    expect(done.body.data.status).not.toBe('failed');
    expect(cloud.sent(credentials.phoneNumberId).filter((s) => s.to === user)).toHaveLength(1);
  });
});
