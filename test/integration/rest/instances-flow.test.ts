import { type FileServer, startFileServer } from '../../helpers/file-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance, connectedV1Instance, eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { MAINTENANCE } from '../../../src/infra/maintenance.js';
import { client, failure } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { decodeQr } from '../../../src/infra/qr-decode.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe.each(MODES)('instances end to end on the sandbox network — $name', (mode) => {
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;
  let media: FileServer;
  let mediaUrl: string;

  beforeAll(async () => {
    // Media is served from this machine over http, so insecure URLs are allowed here.
    // A dropped connection stays down long enough for the held-message test to send while it is.
    gw = await startTestGateway(mode, {
      env: { WEBHOOK_ALLOW_INSECURE: 'true', SANDBOX_RECONNECT_DELAY_MS: '1500' },
      // The stale-message test inserts what no announcement reports: the sweep comes back within a second.
      infra: { maintenance: { ...MAINTENANCE, idleMs: 1000 } },
    });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
    media = await startFileServer({
      '/pic.png': { type: 'image/png', body: PNG_1PX },
      '/huge.png': { type: 'image/png', body: Buffer.alloc(16 * 1024 * 1024 + 1) },
      '/page.html': { type: 'text/html', body: '<p>hi</p>' },
    });
    mediaUrl = media.url;
  });
  afterAll(async () => {
    await media?.close();
    await gw?.close();
  });

  // The events an instance stored: its connection history, and those its webhook subscribes to (no
  // other event gets a row), so the instances whose message events are read here have a webhook.
  const events = async (instanceId: string) =>
    (await gw.gateway.infra.db.prisma.outboxEvent.findMany({ where: { instanceId }, orderBy: { seq: 'asc' } })).map(
      (e) => ({ event: e.event, data: e.data as Record<string, unknown> }),
    );

  it('v1: create → QR → scan → connected → send → received with [TEST] → delivered → read', async () => {
    const created = await api.post('/v1/chat/instances', {
      key: tenant.liveKey,
      body: { name: 'Sales line', description: 'main number', webhookUrl: 'https://hooks.example.com/in', webhookEvents: ['messages.upsert', 'messages.update', 'connection.update'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: {
        id: expect.any(String),
        name: 'Sales line',
        status: 'initializing',
        qrCode: expect.stringMatching(/^data:image\/png;base64,/),
        webhookUrl: 'https://hooks.example.com/in',
        webhookSecret: expect.stringMatching(/^whsec_/),
        createdAt: expect.stringMatching(ISO_MS),
      },
    });
    const id = created.body.data.id;
    const code = decodeQr(created.body.data.qrCode);
    expect(code).toMatch(/^sandbox:[\w-]{32}$/);

    const qr = await api.get(`/v1/chat/instances/${id}/qr`, { key: tenant.liveKey });
    expect(qr.body).toEqual({ success: true, data: { qrCode: created.body.data.qrCode, expiresAt: expect.stringMatching(ISO_MS) } });
    expect((await api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey })).body.data.status).toBe('qr_code');

    const phone = newPhone();
    const scan = await api.post('/sandbox/scan', { body: { code, phone } });
    expect(scan.status).toBe(200);
    const detail = await api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey });
    expect(detail.body.data).toEqual({
      id,
      name: 'Sales line',
      description: 'main number',
      status: 'connected',
      phoneNumber: phone,
      active: true,
      createdAt: created.body.data.createdAt,
      lastConnection: expect.stringMatching(ISO_MS),
      integration: 'CHAT-SANDBOX',
      webhookUrl: 'https://hooks.example.com/in',
      webhookEvents: ['messages.upsert', 'messages.update', 'connection.update'],
      statistics: { messagesSent: 0, messagesReceived: 0, mediaSize: 0 },
      lastDisconnect: null,
      restricted: null,
      historySync: { mode: 'recent', days: 30 },
      media: { keep: 'all', maxBytes: 64 * 1024 * 1024 },
    });
    // A code works once.
    expect((await api.post('/sandbox/scan', { body: { code, phone: newPhone() } })).status).toBe(400);

    const to = newPhone().slice(1);
    const sent = await api.post('/v1/messages/send', { key: tenant.testKey, body: { to, text: 'Hello from v1' } });
    expect(sent.body.data).toMatchObject({ status: 'queued', mode: 'test' });
    const inbox = await eventually(() => phoneInbox(api, to), (r) => r.body.data.length === 1);
    expect(inbox.body.data[0]).toEqual({
      id: sent.body.data.id,
      from: phone.slice(1),
      type: 'text',
      text: '[TEST] Hello from v1',
      receivedAt: expect.stringMatching(ISO_MS),
    });
    const delivered = await eventually(
      () => api.get(`/v1/messages/status/${sent.body.data.id}`, { key: tenant.testKey }),
      (r) => r.body.data.status === 'delivered',
    );
    expect(delivered.body.data.timestamps).toEqual({
      queued: expect.stringMatching(ISO_MS),
      sent: expect.stringMatching(ISO_MS),
      delivered: expect.stringMatching(ISO_MS),
      read: null,
      failed: null,
    });
    expect(delivered.body.data.from).toBe(phone.slice(1));

    expect((await api.post(`/sandbox/phones/${to}/read`, { body: { messageId: sent.body.data.id } })).status).toBe(200);
    const read = await api.get(`/v1/messages/status/${sent.body.data.id}`, { key: tenant.testKey });
    expect(read.body.data.status).toBe('read');
    expect(read.body.data.timestamps.read).toMatch(ISO_MS);

    const inbound = await api.post('/sandbox/messages', { body: { from: to, to: phone.slice(1), text: 'Thanks!', pushName: 'Ana' } });
    expect(inbound.status).toBe(200);
    const stats = (await api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey })).body.data.statistics;
    expect(stats).toEqual({ messagesSent: 1, messagesReceived: 1, mediaSize: 0 });

    const log = await events(id);
    expect(log.filter((e) => e.event === 'connection.update').map((e) => e.data.status)).toEqual(['qr_code', 'connecting', 'connected']);
    expect(log.filter((e) => e.event === 'qr.update')).toHaveLength(1);
    expect(log.find((e) => e.event === 'connection.update' && e.data.status === 'connected')!.data.phoneNumber).toBe(phone.slice(1));
    const upserts = log.filter((e) => e.event === 'messages.upsert').map((e) => e.data);
    expect(upserts).toEqual([
      expect.objectContaining({ messageId: sent.body.data.id, fromMe: true, from: phone.slice(1), to, type: 'text', text: '[TEST] Hello from v1' }),
      expect.objectContaining({ messageId: inbound.body.data.messageId, fromMe: false, from: to, to: phone.slice(1), text: 'Thanks!' }),
    ]);
    expect(log.filter((e) => e.event === 'messages.update').map((e) => e.data.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('v1: the code in the create answer is a live pairing code: scanning it connects the instance', async () => {
    const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'Scanned at once' } });
    expect(created.body.data.status).toBe('initializing');
    const phone = newPhone();
    const scan = await api.post('/sandbox/scan', { body: { code: decodeQr(created.body.data.qrCode), phone } });
    expect(scan.status).toBe(200);
    const detail = await eventually(
      () => api.get(`/v1/chat/instances/${created.body.data.id}`, { key: tenant.liveKey }),
      (r) => r.body.data.status === 'connected',
    );
    expect(detail.body.data.phoneNumber).toBe(phone);
    // Used once: the same code cannot pair again.
    expect((await api.post('/sandbox/scan', { body: { code: decodeQr(created.body.data.qrCode), phone: newPhone() } })).status).toBe(400);
  });

  it('session: create → automatic QR → scan → connected → send-text and send-media → inbox', async () => {
    const created = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: 'Support', webhookUrl: 'https://hooks.example.com/s' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: {
        instanceId: expect.any(String),
        instanceName: 'Support',
        status: 'created',
        integration: 'CHAT-SANDBOX',
        webhookUrl: 'https://hooks.example.com/s',
        webhookSecret: expect.stringMatching(/^whsec_/),
      },
    });
    const id = created.body.data.instanceId;
    const withQr = await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => Boolean(r.body.data.qrCode));
    expect(withQr.body.data).toEqual({
      id,
      name: 'Support',
      phone: null,
      status: 'qr',
      integration: 'CHAT-SANDBOX',
      webhookUrl: 'https://hooks.example.com/s',
      profilePicUrl: null,
      active: true,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      lastDisconnect: null,
      restricted: null,
      historySync: { mode: 'recent', days: 30 },
      media: { keep: 'all', maxBytes: 64 * 1024 * 1024 },
      qrCode: { base64: expect.stringMatching(/^data:image\/png;base64,/), expiry: expect.any(Number), attemptId: expect.any(String) },
    });
    expect(withQr.body.data.qrCode.expiry).toBeGreaterThan(0);
    expect(withQr.body.data.qrCode.expiry).toBeLessThanOrEqual(20);

    const phone = newPhone();
    await api.post('/sandbox/scan', { body: { code: decodeQr(withQr.body.data.qrCode.base64), phone } });
    const connected = await api.get(`/chat/instances/${id}`, { cookie: tenant.cookie });
    expect(connected.body.data).toMatchObject({ status: 'connected', phone });
    expect(connected.body.data.qrCode).toBeUndefined();
    const list = await api.get('/chat/instances', { cookie: tenant.cookie });
    expect(list.body.data.find((i: { id: string }) => i.id === id)).toEqual({
      id, name: 'Support', phone, status: 'connected', webhookUrl: 'https://hooks.example.com/s', active: true, createdAt: expect.stringMatching(ISO_MS),
    });

    const to = newPhone().slice(1);
    const text = await api.post(`/chat/instances/${id}/send-text`, { cookie: tenant.cookie, body: { to, message: 'Hi there' } });
    expect(text.body).toEqual({ success: true, data: { id: expect.any(String), status: 'queued', timestamp: expect.stringMatching(ISO_MS) } });
    const image = await api.post(`/chat/instances/${id}/send-media`, {
      cookie: tenant.cookie,
      body: { to, mediaUrl: `${mediaUrl}/pic.png`, mediaType: 'image', caption: 'our logo' },
    });
    expect(image.status).toBe(200);
    const inbox = await eventually(() => phoneInbox(api, to), (r) => r.body.data.length === 2);
    expect(inbox.body.data.map((m: Record<string, unknown>) => [m.type, m.text, m.caption, m.mediaUrl])).toEqual([
      ['text', 'Hi there', undefined, undefined],
      ['image', null, 'our logo', `${mediaUrl}/pic.png`],
    ]);
    // The phone holds a message as soon as the network accepts it; the gateway counts it when it
    // records that acceptance, a moment later.
    const v1View = await eventually(
      () => api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey }),
      (r) => r.body.data.statistics.messagesSent === 2,
    );
    expect(v1View.body.data.statistics).toEqual({ messagesSent: 2, messagesReceived: 0, mediaSize: PNG_1PX.length });
  });

  it('refuses media that is missing, of the wrong type or not http(s)', async () => {
    const { id } = await connectedSessionInstance(api, tenant.cookie, 'Media checks');
    const send = (body: object) => api.post(`/chat/instances/${id}/send-media`, { cookie: tenant.cookie, body: { to: '5511987654321', ...body } });
    for (const [body, field] of [
      [{ mediaUrl: `${mediaUrl}/page.html`, mediaType: 'image' }, /text\/html/],
      [{ mediaUrl: `${mediaUrl}/missing.png`, mediaType: 'image' }, /404/],
      [{ mediaUrl: `${mediaUrl}/huge.png`, mediaType: 'image' }, /larger than 16777216 bytes/],
      [{ mediaUrl: 'ftp://files.example.com/a.png', mediaType: 'image' }, /mediaUrl/],
      [{ mediaUrl: `${mediaUrl}/pic.png`, mediaType: 'sticker' }, /mediaType/],
      [{ mediaType: 'image' }, /mediaUrl/],
    ] as const) {
      const response = await send(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual(failure('invalid_request'));
      expect(response.body.error.message).toMatch(field);
    }
  });

  it('drops and reconnects by itself; a ban ends it', async () => {
    const { id } = await connectedV1Instance(api, tenant.liveKey, 'Flaky line');
    expect((await api.post(`/sandbox/instances/${id}/drop`)).status).toBe(200);
    expect((await api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey })).body.data.status).toBe('disconnected');
    await eventually(() => api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected');
    const statuses = (await events(id)).filter((e) => e.event === 'connection.update').map((e) => e.data.status);
    expect(statuses.slice(-3)).toEqual(['disconnected', 'connecting', 'connected']);

    expect((await api.post(`/sandbox/instances/${id}/ban`)).status).toBe(200);
    expect((await api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey })).body.data.status).toBe('error');
    expect((await api.get(`/chat/instances/${id}`, { cookie: tenant.cookie })).body.data.status).toBe('banned');
    const refused = await api.post(`/chat/instances/${id}/send-text`, { cookie: tenant.cookie, body: { to: '5511987654321', message: 'x' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(failure('instance_unavailable'));
  });

  it('holds messages for a disconnected instance and sends them once it is paired again', async () => {
    const { id } = await connectedSessionInstance(api, tenant.cookie, 'Paused line');
    const out = await api.post(`/chat/instances/${id}/disconnect`, { cookie: tenant.cookie });
    expect(out.body).toEqual({ success: true, data: { id, status: 'disconnected' } });
    const to = newPhone().slice(1);
    const held = await api.post(`/chat/instances/${id}/send-text`, { cookie: tenant.cookie, body: { to, message: 'later' } });
    expect(held.status).toBe(200);
    expect((await phoneInbox(api, to)).body.data).toEqual([]);

    const regenerated = await api.post(`/chat/instances/${id}/regenerate-qr`, { cookie: tenant.cookie });
    expect(regenerated.body).toEqual({
      success: true,
      data: { id, status: 'qr', qrCode: { base64: expect.any(String), expiry: expect.any(Number), attemptId: expect.any(String) } },
    });
    await api.post('/sandbox/scan', { body: { code: decodeQr(regenerated.body.data.qrCode.base64), phone: newPhone() } });
    const inbox = await eventually(() => phoneInbox(api, to), (r) => r.body.data.length === 1);
    expect(inbox.body.data[0].id).toBe(held.body.data.id);
  });

  it('holds messages to a phone whose instance is reconnecting and hands them over in order once it is back', async () => {
    const own = await createTenant(gw.gateway, api);
    const line = await connectedV1Instance(api, own.liveKey, 'Flaky line');
    const to = line.phone.slice(1);
    const from = newPhone().slice(1);
    expect((await api.post(`/sandbox/instances/${line.id}/drop`)).status).toBe(200);
    const answers = [];
    for (const text of ['first', 'second', 'third']) answers.push(await api.post('/sandbox/messages', { body: { from, to, text } }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // All three are sent while the connection is down (it stays down 1.5 s here): each is held.
    for (const answer of answers) expect(answer.body.data).toEqual({ held: true, message: expect.any(String) });
    const received = await eventually(
      () => api.get('/v1/messages/list?limit=10', { key: own.liveKey }),
      (r) => r.body.data.filter((m: { direction: string }) => m.direction === 'in').length === 3,
    );
    const inbound = received.body.data.filter((m: { direction: string }) => m.direction === 'in').reverse();
    expect(inbound.map((m: { text: string; from: string }) => [m.text, m.from])).toEqual([
      ['first', from],
      ['second', from],
      ['third', from],
    ]);
    expect((await api.get(`/v1/chat/instances/${line.id}`, { key: own.liveKey })).body.data.statistics.messagesReceived).toBe(3);
  });

  it('refuses messages to a phone no live pairing knows: never paired, logged out, or deleted', async () => {
    const own = await createTenant(gw.gateway, api);
    const from = newPhone().slice(1);
    expect((await api.post('/sandbox/messages', { body: { from, to: newPhone().slice(1), text: 'hello?' } })).status).toBe(404);
    const { id, phone } = await connectedSessionInstance(api, own.cookie, 'Logged out line');
    expect((await api.post(`/chat/instances/${id}/disconnect`, { cookie: own.cookie })).status).toBe(200);
    const afterLogout = await api.post('/sandbox/messages', { body: { from, to: phone.slice(1), text: 'hello?' } });
    expect(afterLogout.status).toBe(404);
    expect(afterLogout.body).toEqual(failure('not_found'));
    const deleted = await connectedV1Instance(api, own.liveKey, 'Deleted line');
    await api.delete(`/v1/chat/instances/${deleted.id}`, { key: own.liveKey });
    expect((await api.post('/sandbox/messages', { body: { from, to: deleted.phone.slice(1), text: 'hello?' } })).status).toBe(404);
  });

  it('fails a message nobody could carry within 24 hours', async () => {
    const own = await createTenant(gw.gateway, api);
    const created = await api.post('/v1/chat/instances', { key: own.liveKey, body: { name: 'never paired', webhookUrl: 'https://hooks.example.com/failed' } });
    const prisma = gw.gateway.infra.db.prisma;
    const stale = await prisma.message.create({
      data: {
        tenantId: own.tenantId,
        instanceId: created.body.data.id,
        direction: 'out',
        to: '5511987654321',
        text: 'too late',
        mode: 'production',
        queuedAt: new Date(Date.now() - 25 * 3600_000),
        createdAt: new Date(Date.now() - 25 * 3600_000),
      },
    });
    const failed = await eventually(() => api.get(`/v1/messages/status/${stale.id}`, { key: own.liveKey }), (r) => r.body.data.status === 'failed');
    expect(failed.body.data.error).toEqual({ code: 'expired', message: 'No connected instance carried the message within 24 hours.' });
    expect(failed.body.data.timestamps.failed).toMatch(ISO_MS);
    const update = (await events(created.body.data.id)).find((e) => e.event === 'messages.update');
    expect(update?.data).toMatchObject({ messageId: stale.id, status: 'failed' });
  });

  it('keeps "read" when a delivery receipt arrives at the same moment, for every message', async () => {
    const own = await createTenant(gw.gateway, api);
    await connectedV1Instance(api, own.liveKey, 'Racing receipts');
    const to = newPhone().slice(1);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await api.post('/v1/messages/send', { key: own.liveKey, body: { to, text: `r${i}` } })).body.data.id);
    await eventually(() => phoneInbox(api, to), (r) => r.body.data.length === 20);
    const { engineEvents } = gw.gateway.services;
    const instanceId = (await api.get(`/v1/messages/status/${ids[0]}`, { key: own.liveKey })).body.data.instanceId;
    // The sandbox network knows a message by the gateway's id.
    await Promise.all(
      ids.flatMap((id) => [
        engineEvents.receipts(instanceId, [{ networkMessageId: id, status: 'delivered' }]),
        engineEvents.receipts(instanceId, [{ networkMessageId: id, status: 'read' }]),
      ]),
    );
    const statuses = await Promise.all(ids.map(async (id) => (await api.get(`/v1/messages/status/${id}`, { key: own.liveKey })).body.data.status));
    expect(statuses).toEqual(Array(20).fill('read'));
  });

  it('sends a deleted-message event and keeps statuses from going backwards', async () => {
    // A tenant of its own: with one instance, /v1/messages/send has only it to route to.
    const own = await createTenant(gw.gateway, api);
    const { id, phone } = await connectedV1Instance(api, own.liveKey, 'Receipts');
    expect((await api.post(`/v1/chat/instances/${id}/webhook`, { key: own.liveKey, body: { url: 'https://hooks.example.com/receipts' } })).status).toBe(200);
    const to = newPhone().slice(1);
    const sent = await api.post('/v1/messages/send', { key: own.liveKey, body: { to, text: 'x' } });
    await eventually(() => phoneInbox(api, to), (r) => r.body.data.length === 1);
    await api.post(`/sandbox/phones/${to}/read`, { body: { messageId: sent.body.data.id } });
    // The sandbox's own "delivered" receipt may arrive after "read": the status stays read.
    await eventually(
      () => api.get(`/v1/messages/status/${sent.body.data.id}`, { key: own.liveKey }),
      (r) => r.body.data.timestamps.delivered !== null,
    );
    expect((await api.get(`/v1/messages/status/${sent.body.data.id}`, { key: own.liveKey })).body.data.status).toBe('read');

    const deleted = await api.post(`/sandbox/messages/${sent.body.data.id}/delete`, { body: { forEveryone: true } });
    expect(deleted.status, deleted.text).toBe(200);
    const del = (await events(id)).find((e) => e.event === 'messages.delete');
    expect(del?.data).toEqual({ messageId: sent.body.data.id, deletedBy: phone.slice(1), forEveryone: true });
  });
});
