import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance, eventually, newPhone, sleep } from '../../factories/sandbox.js';
import { createTenant } from '../../factories/tenants.js';
import { startTestGateway } from '../../kit/gateway.js';
import { client, failure } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';
import { decodeQr } from '../../../src/infra/qr-decode.js';
import { hubSignature } from '../../../src/domain/webhooks/signature.js';

describe.each(MODES)('instance management — $name', (mode) => {

  const suite = gatewaySuite(mode, { env: { QR_SESSION_TTL_S: '1', QR_SESSION_ATTEMPTS: '2', QR_V1_TTL_S: '1', WEBHOOK_ALLOW_INSECURE: 'true' }, tenants: ['enterprise', 'enterprise'] });

  const v1 = (name: string, extra: object = {}) => suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body: { name, ...extra } });

  it('session QR codes rotate every QR_SESSION_TTL_S, stop after QR_SESSION_ATTEMPTS, and regenerate-qr starts over', async () => {
    const created = await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: 'Rotating' } });
    const id = created.body.data.instanceId;
    const detail = () => suite.api.get(`/chat/instances/${id}`, { cookie: suite.tenant.cookie });
    const expired = await eventually(detail, (r) => r.body.data.status === 'disconnected', 10_000);
    expect(expired.body.data.qrCode).toBeUndefined();
    // What it handed out, read from the store rather than caught by polling (a 1 s code can come and go
    // between two reads on a loaded machine): QR_SESSION_ATTEMPTS codes, each live at most
    // QR_SESSION_TTL_S from when it was stored, each stored once the one before had run out.
    const codes = await suite.gw.gateway.infra.db.prisma.qrCode.findMany({ where: { instanceId: id }, orderBy: { createdAt: 'asc' } });
    expect(codes).toHaveLength(2);
    expect(codes[1]!.code).not.toBe(codes[0]!.code);
    for (const code of codes) expect(code.expiresAt.getTime() - code.createdAt.getTime()).toBeGreaterThan(0);
    for (const code of codes) expect(code.expiresAt.getTime() - code.createdAt.getTime()).toBeLessThanOrEqual(1000);
    expect(codes[1]!.createdAt.getTime()).toBeGreaterThanOrEqual(codes[0]!.expiresAt.getTime());
    // An expired code cannot pair.
    for (const { code } of codes) {
      const late = await suite.api.post('/sandbox/scan', { body: { code, phone: newPhone() } });
      expect(late.status).toBe(400);
      expect(late.body).toEqual(failure('invalid_request'));
    }

    const regenerated = await suite.api.post(`/chat/instances/${id}/regenerate-qr`, { cookie: suite.tenant.cookie });
    expect(regenerated.body.data.status).toBe('qr');
    await suite.api.post('/sandbox/scan', { body: { code: decodeQr(regenerated.body.data.qrCode.base64), phone: newPhone() } });
    expect((await detail()).body.data.status).toBe('connected');
    const again = await suite.api.post(`/chat/instances/${id}/regenerate-qr`, { cookie: suite.tenant.cookie });
    expect(again.status).toBe(409);
  });

  it('v1: GET …/qr returns the live code within QR_V1_TTL_S and a new one after', async () => {
    const id = (await v1('V1 timing')).body.data.id;
    const a = await suite.api.get(`/v1/chat/instances/${id}/qr`, { key: suite.tenant.liveKey });
    const b = await suite.api.get(`/v1/chat/instances/${id}/qr`, { key: suite.tenant.liveKey });
    expect(b.body.data.qrCode).toBe(a.body.data.qrCode);
    await sleep(1100);
    // Live when it was asked for (on a loaded machine a 1 s code can be past its time when the answer is read).
    const askedAt = Date.now();
    const c = await suite.api.get(`/v1/chat/instances/${id}/qr`, { key: suite.tenant.liveKey });
    expect(decodeQr(c.body.data.qrCode)).not.toBe(decodeQr(a.body.data.qrCode));
    expect(Date.parse(c.body.data.expiresAt)).toBeGreaterThan(askedAt);
  });

  it('toggle flips active; an inactive instance is skipped by routing and refuses its own sends', async () => {
    const solo = await createTenant(suite.gw.gateway, suite.api);
    const { id } = await connectedSessionInstance(suite.api, solo.cookie, 'Toggled');
    const off = await suite.api.post(`/v1/chat/instances/${id}/toggle`, { key: solo.liveKey });
    expect(off.body).toEqual({ success: true, data: { id, active: false, message: expect.any(String) } });
    const routed = await suite.api.post('/v1/messages/send', { key: solo.liveKey, body: { to: '5511987654321', text: 'x' } });
    expect(routed.status).toBe(409);
    expect(routed.body).toEqual(failure('instance_unavailable'));
    const own = await suite.api.post(`/chat/instances/${id}/send-text`, { cookie: solo.cookie, body: { to: '5511987654321', message: 'x' } });
    expect(own.status).toBe(409);
    expect(own.body).toEqual(failure('instance_inactive'));
    expect((await suite.api.get(`/chat/instances/${id}`, { cookie: solo.cookie })).body.data).toMatchObject({ active: false, status: 'connected' });
    const on = await suite.api.post(`/v1/chat/instances/${id}/toggle`, { key: solo.liveKey });
    expect(on.body.data.active).toBe(true);
    expect((await suite.api.post('/v1/messages/send', { key: solo.liveKey, body: { to: '5511987654321', text: 'x' } })).status).toBe(200);
  });

  it('PUT updates either variant and answers that variant\'s detail', async () => {
    const id = (await v1('Before rename')).body.data.id;
    const put = await suite.api.put(`/v1/chat/instances/${id}`, {
      key: suite.tenant.liveKey,
      body: { name: 'After rename', description: 'new', webhookUrl: 'https://hooks.example.com/x', webhookEvents: ['qr.update'] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ id, name: 'After rename', description: 'new', webhookUrl: 'https://hooks.example.com/x', webhookEvents: ['qr.update'] });
    expect(put.body.data.statistics).toEqual({ messagesSent: 0, messagesReceived: 0, mediaSize: 0 });

    const session = await suite.api.put(`/chat/instances/${id}`, { cookie: suite.tenant.cookie, body: { name: 'Renamed again' } });
    expect(session.status).toBe(200);
    expect(session.body.data).toMatchObject({ id, name: 'Renamed again', integration: 'CHAT-SANDBOX' });
    await v1('Taken name');
    const clash = await suite.api.put(`/v1/chat/instances/${id}`, { key: suite.tenant.liveKey, body: { name: 'Taken name' } });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual(failure('instance_name_taken'));
  });

  it('PUT with nothing to change answers 200 with the instance as it is, in either variant', async () => {
    const id = (await v1('Nothing to change')).body.data.id;
    const before = (await suite.api.get(`/v1/chat/instances/${id}`, { key: suite.tenant.liveKey })).body.data;
    for (const body of [{}, { colour: 'blue' }]) {
      const put = await suite.api.put(`/v1/chat/instances/${id}`, { key: suite.tenant.liveKey, body });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ success: true, data: before });
    }
    const session = await suite.api.put(`/chat/instances/${id}`, { cookie: suite.tenant.cookie, body: {} });
    expect(session.status).toBe(200);
    expect(session.body.data).toMatchObject({ id, name: 'Nothing to change' });
    const sessionInstance = (await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: 'Session unchanged' } })).body.data.instanceId;
    // A session instance has no description: sent to it, that field does not apply and is ignored.
    const ignored = await suite.api.put(`/chat/instances/${sessionInstance}`, { cookie: suite.tenant.cookie, body: { description: 'not a session field' } });
    expect(ignored.status).toBe(200);
    expect(ignored.body.data).toMatchObject({ id: sessionInstance, name: 'Session unchanged' });
    // An unknown id is still 404.
    expect((await suite.api.put('/v1/chat/instances/00000000-0000-4000-8000-000000000000', { key: suite.tenant.liveKey, body: {} })).status).toBe(404);
  });

  it('DELETE removes the instance with its messages and QR codes', async () => {
    const solo = await createTenant(suite.gw.gateway, suite.api);
    const { id } = await connectedSessionInstance(suite.api, solo.cookie, 'Doomed');
    const sent = await suite.api.post(`/chat/instances/${id}/send-text`, { cookie: solo.cookie, body: { to: '5511987654321', message: 'bye' } });
    const deleted = await suite.api.delete(`/v1/chat/instances/${id}`, { key: solo.liveKey });
    expect(deleted.body).toEqual({ success: true, message: expect.any(String) });
    expect((await suite.api.get(`/v1/chat/instances/${id}`, { key: solo.liveKey })).status).toBe(404);
    expect((await suite.api.get(`/v1/messages/status/${sent.body.data.id}`, { key: solo.liveKey })).status).toBe(404);
    const prisma = suite.gw.gateway.infra.db.prisma;
    expect(await prisma.qrCode.count({ where: { instanceId: id } })).toBe(0);
    expect(await prisma.outboxEvent.count({ where: { instanceId: id } })).toBe(0);
    expect((await suite.api.delete(`/chat/instances/${id}`, { cookie: solo.cookie })).status).toBe(404);
  });

  it.each([
    ['v1 name too short', 'v1', { name: 'ab' }, 'name: must be 3 to 100 characters'],
    ['v1 name over 100', 'v1', { name: 'x'.repeat(101) }, 'name: must be 3 to 100 characters'],
    ['v1 name missing', 'v1', { description: 'x' }, 'name: is required'],
    ['v1 name a number', 'v1', { name: 123 }, 'name: must be a string, not a number'],
    ['v1 description over 500', 'v1', { name: 'okay', description: 'x'.repeat(501) }, 'description: must be at most 500 characters'],
    ['v1 webhookUrl not a URL', 'v1', { name: 'okay', webhookUrl: 'not a url' }, 'webhookUrl: must be an absolute URL'],
    ['v1 webhookUrl ftp', 'v1', { name: 'okay', webhookUrl: 'ftp://x.example.com' }, 'webhookUrl: must be an https:// URL'],
    ['v1 unknown event', 'v1', { name: 'okay', webhookEvents: ['groups.update'] }, 'webhookEvents: unknown event name(s) groups.update; allowed: messages.upsert, messages.update, messages.delete, connection.update, qr.update, call, instance.restricted'],
    ['v1 events not a list', 'v1', { name: 'okay', webhookEvents: 'qr.update' }, 'webhookEvents: must be an array, not a string'],
    [
      'v1 several bad fields at once',
      'v1',
      { name: 'ab', description: 7, webhookEvents: ['nope', 'nope'] },
      'name: must be 3 to 100 characters; description: must be a string, not a number; webhookEvents: unknown event name(s) nope; allowed: messages.upsert, messages.update, messages.delete, connection.update, qr.update, call, instance.restricted',
    ],
    ['v1 body an array', 'v1', [{ name: 'okay' }], 'The request body must be a JSON object, not an array.'],
    ['session name too short', 'session', { name: 'ab' }, 'name: must be 3 to 50 characters'],
    ['session name over 50', 'session', { name: 'x'.repeat(51) }, 'name: must be 3 to 50 characters'],
    ['session webhookUrl not a URL', 'session', { name: 'okay', webhookUrl: 'nope' }, 'webhookUrl: must be an absolute URL'],
  ])('refuses %s with 400 invalid_request and an exact message', async (_label, variant, body, message) => {
    const response =
      variant === 'v1'
        ? await suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body })
        : await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: { code: 'invalid_request', message } });
  });

  it('compares names case-insensitively, on create and on rename', async () => {
    expect((await v1('Sales line')).status).toBe(201);
    const clash = await v1('sales LINE');
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual(failure('instance_name_taken'));
    const other = (await v1('Support line')).body.data.id;
    const rename = await suite.api.put(`/v1/chat/instances/${other}`, { key: suite.tenant.liveKey, body: { name: 'SALES line' } });
    expect(rename.status).toBe(409);
    expect(rename.body).toEqual(failure('instance_name_taken'));
    // Changing the case of its own name is a rename, not a clash.
    expect((await suite.api.put(`/v1/chat/instances/${other}`, { key: suite.tenant.liveKey, body: { name: 'SUPPORT LINE' } })).status).toBe(200);
  });

  it('answers a duplicate name with 409 instance_name_taken even at the plan limit', async () => {
    const starter = await createTenant(suite.gw.gateway, suite.api, 'starter');
    expect((await suite.api.post('/v1/chat/instances', { key: starter.liveKey, body: { name: 'Only line' } })).status).toBe(201);
    const dup = await suite.api.post('/v1/chat/instances', { key: starter.liveKey, body: { name: 'only line' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual(failure('instance_name_taken'));
    expect((await suite.api.post('/v1/chat/instances', { key: starter.liveKey, body: { name: 'Second line' } })).status).toBe(403);
  });

  it('accepts a 100-character v1 name and a 50-character session name; names are unique per tenant', async () => {
    expect((await v1('y'.repeat(100))).status).toBe(201);
    expect((await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: 'z'.repeat(50) } })).status).toBe(201);
    const dup = await v1('y'.repeat(100));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual(failure('instance_name_taken'));
    // Another tenant may use the same name.
    expect((await suite.api.post('/v1/chat/instances', { key: suite.other.liveKey, body: { name: 'y'.repeat(100) } })).status).toBe(201);
  });

  it('creates exactly the plan limit under 20 concurrent creates (pro: 5), then 403 instance_limit_reached', async () => {
    const pro = await createTenant(suite.gw.gateway, suite.api, 'pro');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? suite.api.post('/v1/chat/instances', { key: pro.liveKey, body: { name: `parallel ${i}` } }) : suite.api.post('/chat/instances', { cookie: pro.cookie, body: { name: `parallel ${i}` } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.body).toEqual(failure('instance_limit_reached'));
    expect(refused[0]!.status).toBe(403);
    expect((await suite.api.get('/v1/chat/instances', { key: pro.liveKey })).body.data).toHaveLength(5);
  });

  it('a starter tenant gets one instance', async () => {
    const starter = await createTenant(suite.gw.gateway, suite.api, 'starter');
    expect((await suite.api.post('/v1/chat/instances', { key: starter.liveKey, body: { name: 'only one' } })).status).toBe(201);
    expect((await suite.api.post('/v1/chat/instances', { key: starter.liveKey, body: { name: 'second' } })).status).toBe(403);
  });

  it('answers 403 forbidden to another tenant on every instance endpoint, and 404 for unknown ids', async () => {
    const id = (await v1('Private')).body.data.id;
    const k = { key: suite.other.liveKey };
    const c = { cookie: suite.other.cookie };
    const calls = [
      suite.api.get(`/v1/chat/instances/${id}`, k),
      suite.api.put(`/v1/chat/instances/${id}`, { ...k, body: { name: 'mine now' } }),
      suite.api.delete(`/v1/chat/instances/${id}`, k),
      suite.api.post(`/v1/chat/instances/${id}/toggle`, k),
      suite.api.get(`/v1/chat/instances/${id}/qr`, k),
      suite.api.post(`/v1/chat/instances/${id}/webhook`, { ...k, body: { url: 'https://evil.example.com' } }),
      suite.api.post(`/v1/chat/instances/${id}/webhook/test`, k),
      suite.api.get(`/chat/instances/${id}`, c),
      suite.api.put(`/chat/instances/${id}`, { ...c, body: { name: 'mine now' } }),
      suite.api.delete(`/chat/instances/${id}`, c),
      suite.api.post(`/chat/instances/${id}/regenerate-qr`, c),
      suite.api.post(`/chat/instances/${id}/disconnect`, c),
      suite.api.post(`/chat/instances/${id}/send-text`, { ...c, body: { to: '5511987654321', message: 'x' } }),
      suite.api.post(`/chat/instances/${id}/send-media`, { ...c, body: { to: '5511987654321', mediaUrl: 'https://x.example.com/a.png', mediaType: 'image' } }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status, response.text).toBe(403);
      expect(response.body).toEqual(failure('forbidden'));
    }
    expect((await suite.api.get(`/v1/chat/instances/${id}`, { key: suite.tenant.liveKey })).body.data.name).toBe('Private');
    const theirList = await suite.api.get('/v1/chat/instances', k);
    expect(theirList.body.data.map((i: { id: string }) => i.id)).not.toContain(id);
    for (const unknown of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await suite.api.get(`/v1/chat/instances/${unknown}`, { key: suite.tenant.liveKey })).status).toBe(404);
      expect((await suite.api.post(`/chat/instances/${unknown}/disconnect`, { cookie: suite.tenant.cookie })).status).toBe(404);
    }
  });

  it('takes only its documented credential: v1 needs a key, session needs a cookie', async () => {
    expect((await suite.api.get('/v1/chat/instances', { cookie: suite.tenant.cookie })).status).toBe(401);
    expect((await suite.api.get('/chat/instances', { key: suite.tenant.liveKey })).status).toBe(401);
    expect((await suite.api.get('/v1/chat/instances')).body).toEqual(failure('unauthorized'));
  });

  describe('webhook settings and test', () => {
    let receiver: Server;
    let receiverUrl: string;
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          if (req.url === '/fail') res.writeHead(500).end('nope');
          else res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(3000));
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    });
    afterAll(() => receiver?.close());

    it('sets url and events, then sends a signed test event and reports the answer', async () => {
      const created = await v1('Hooked');
      const id = created.body.data.id;
      const set = await suite.api.post(`/v1/chat/instances/${id}/webhook`, { key: suite.tenant.liveKey, body: { url: `${receiverUrl}/ok`, events: ['messages.upsert'] } });
      expect(set.body).toEqual({ success: true, data: { url: `${receiverUrl}/ok`, events: ['messages.upsert'] } });
      const defaults = await suite.api.post(`/v1/chat/instances/${id}/webhook`, { key: suite.tenant.liveKey, body: { url: `${receiverUrl}/ok` } });
      expect(defaults.body.data.events).toEqual(['messages.upsert', 'messages.update', 'messages.delete', 'connection.update', 'qr.update']);

      const test = await suite.api.post(`/v1/chat/instances/${id}/webhook/test`, { key: suite.tenant.liveKey });
      expect(test.body).toEqual({ success: true, data: { status: 'sent', response: { statusCode: 200, body: 'x'.repeat(1024) } } });
      const delivery = received.at(-1)!;
      expect(JSON.parse(delivery.body)).toEqual({ event: 'webhook.test', instanceId: id, timestamp: expect.any(String), data: {} });
      expect(delivery.headers['x-hub-signature-256']).toBe(hubSignature(created.body.data.webhookSecret, delivery.body));
      expect(delivery.headers['x-webhook-event']).toBe('webhook.test');

      await suite.api.post(`/v1/chat/instances/${id}/webhook`, { key: suite.tenant.liveKey, body: { url: `${receiverUrl}/fail` } });
      const failing = await suite.api.post(`/v1/chat/instances/${id}/webhook/test`, { key: suite.tenant.liveKey });
      expect(failing.body.data).toEqual({ status: 'sent', response: { statusCode: 500, body: 'nope' } });

      await suite.api.post(`/v1/chat/instances/${id}/webhook`, { key: suite.tenant.liveKey, body: { url: 'http://127.0.0.1:1/unreachable' } });
      const unreachable = await suite.api.post(`/v1/chat/instances/${id}/webhook/test`, { key: suite.tenant.liveKey });
      expect(unreachable.body.data).toEqual({
        status: 'failed',
        error: 'could not connect to 127.0.0.1:1: the connection was refused (nothing accepts connections on that port) [ECONNREFUSED]',
      });
    });

    it('refuses a test without a webhook and bad webhook bodies', async () => {
      const id = (await v1('No hook')).body.data.id;
      const none = await suite.api.post(`/v1/chat/instances/${id}/webhook/test`, { key: suite.tenant.liveKey });
      expect(none.status).toBe(400);
      expect(none.body).toEqual(failure('invalid_request'));
      for (const body of [{}, { url: 'nope' }, { url: `${receiverUrl}/ok`, events: ['presence.update'] }]) {
        const response = await suite.api.post(`/v1/chat/instances/${id}/webhook`, { key: suite.tenant.liveKey, body });
        expect(response.status).toBe(400);
      }
    });
  });
});

describe('instance URLs without WEBHOOK_ALLOW_INSECURE', () => {
  it('refuses http:// webhook URLs', async () => {
    const gw = await startTestGateway(MODES[0]!);
    try {
      const api = client(gw.url);
      const tenant = await createTenant(gw.gateway, api);
      const response = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'plain http', webhookUrl: 'http://hooks.example.com' } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/https/);
    } finally {
      await gw.close();
    }
  });
});
