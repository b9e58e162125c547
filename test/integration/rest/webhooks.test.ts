import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../../src/infra/qr-decode.js';
import { eventually, newPhone, sleep } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';
import { RotateWebhookSecret } from '../../graphql/operations.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(MODES)('webhook delivery — $name', (mode) => {
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;

  beforeAll(async () => {
    gw = await startTestGateway(mode, { env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS: '0,1,1,1', WEBHOOK_TIMEOUT_MS: '500' } });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
  });
  afterAll(() => gw?.close());

  it('delivers every v1 event, signed so independent verifiers accept it, in the spec 6.2 envelope', async () => {
    const receiver = await startReceiver();
    try {
      const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'Hooked v1', webhookUrl: `${receiver.url}/hook` } });
      const { id, webhookSecret } = created.body.data;
      const code = decodeQr((await api.get(`/v1/chat/instances/${id}/qr`, { key: tenant.liveKey })).body.data.qrCode);
      const phone = newPhone();
      await api.post('/sandbox/scan', { body: { code, phone } });
      const to = newPhone().slice(1);
      const sent = await api.post('/v1/messages/send', { key: tenant.testKey, body: { to, text: 'hooked' } });
      // Delivery is at least once: a delivery slower than the suite's short timeout (a busy machine) is
      // sent again, with its id and bytes. Count events, not deliveries: one per webhook id.
      const events = (name: string) => {
        const byId = new Map<string, (typeof receiver.received)[number]>();
        for (const delivery of receiver.of(name)) {
          const id = String(delivery.headers['x-webhook-id']);
          const seen = byId.get(id);
          if (seen) expect(delivery.body, `a repeat of webhook ${id}`).toBe(seen.body);
          else byId.set(id, delivery);
        }
        return [...byId.values()];
      };
      await eventually(async () => events('messages.update').length, (n) => n >= 2);
      // Deliveries run concurrently (and a slow one is retried): wait for each kind, then order by the event's time.
      await eventually(async () => events('connection.update').length, (n) => n >= 3);
      const byEventTime = (list: Array<{ body: string }>) => list.map((r) => JSON.parse(r.body)).sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));

      const qr = receiver.of('qr.update')[0]!;
      expect(JSON.parse(qr.body)).toEqual({
        event: 'qr.update',
        instanceId: id,
        timestamp: expect.stringMatching(ISO_MS),
        data: { qrCode: created.body.data.qrCode, expiresAt: expect.stringMatching(ISO_MS), attemptId: expect.any(String) },
      });
      expect(byEventTime(events('connection.update')).map((body) => body.data)).toEqual([
        // The gateway adds the close that caused a change (none of these; docs/webhooks.md).
        { status: 'qr_code', phoneNumber: null, reason: null },
        { status: 'connecting', phoneNumber: phone.slice(1), reason: null },
        { status: 'connected', phoneNumber: phone.slice(1), reason: null },
      ]);
      const upsert = JSON.parse(receiver.of('messages.upsert').find((r) => r.body.includes(sent.body.data.id))!.body);
      expect(upsert).toEqual({
        event: 'messages.upsert',
        instanceId: id,
        timestamp: expect.stringMatching(ISO_MS),
        data: { messageId: sent.body.data.id, from: phone.slice(1), to, fromMe: true, type: 'text', text: '[TEST] hooked', timestamp: expect.stringMatching(ISO_MS) },
      });
      // An inbound message's v1 body has exactly the spec 6.2 fields: no pushName.
      const from = newPhone().slice(1);
      const inbound = await api.post('/sandbox/messages', { body: { from, to: phone.slice(1), text: 'Oi!', pushName: 'Ana' } });
      const received = await eventually(async () => receiver.of('messages.upsert').find((r) => r.body.includes(inbound.body.data.messageId)), (r) => r !== undefined);
      expect(JSON.parse(received!.body).data).toEqual({
        messageId: inbound.body.data.messageId,
        from,
        to: phone.slice(1),
        fromMe: false,
        type: 'text',
        text: 'Oi!',
        timestamp: expect.stringMatching(ISO_MS),
      });
      // Deliveries run concurrently, so they may arrive in any order: pick the delivered one.
      const update = receiver.of('messages.update').map((r) => JSON.parse(r.body)).find((u) => u.data.status === 'delivered');
      expect(update.data).toEqual({ messageId: sent.body.data.id, status: 'delivered', timestamps: { sent: expect.stringMatching(ISO_MS), delivered: expect.stringMatching(ISO_MS) } });

      const wh = new Webhook(webhookSecret.slice('whsec_'.length));
      for (const delivery of receiver.received) {
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(await verifyHubSignature(webhookSecret, delivery.body, String(delivery.headers['x-hub-signature-256']))).toBe(true);
        expect(await verifyHubSignature('another secret', delivery.body, String(delivery.headers['x-hub-signature-256']))).toBe(false);
        expect(() => wh.verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();
        expect(delivery.headers['x-webhook-id']).toBe(delivery.headers['webhook-id']);
      }
      expect(() => wh.verify(`${receiver.received[0]!.body} `, receiver.received[0]!.headers as Record<string, string>)).toThrow();
      // Each event its own id (a repeat carries its event's id and bytes, checked above).
      const kinds = [...new Set(receiver.received.map((r) => String(r.headers['x-webhook-event'])))];
      const distinct = kinds.flatMap((kind) => events(kind));
      expect(new Set(distinct.map((r) => r.body)).size).toBe(distinct.length);
      expect(new Set(receiver.received.map((r) => r.headers['x-webhook-id'])).size).toBe(distinct.length);
    } finally {
      await receiver.close();
    }
  });

  it('delivers session events in the spec 6.3 envelope, filtered by the subscription', async () => {
    const receiver = await startReceiver();
    try {
      const created = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: 'Hooked session', webhookUrl: `${receiver.url}/s` } });
      const id = created.body.data.instanceId;
      const detail = await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => Boolean(r.body.data.qrCode));
      const phone = newPhone();
      await api.post('/sandbox/scan', { body: { code: decodeQr(detail.body.data.qrCode.base64), phone } });
      const from = newPhone().slice(1);
      const inbound = await api.post('/sandbox/messages', { body: { from, to: phone.slice(1), text: 'Oi!', pushName: 'Ana' } });
      const [upsert] = await eventually(async () => receiver.of('messages.upsert'), (list) => list.length === 1);
      const body = JSON.parse(upsert!.body);
      expect(body).toEqual({
        event: 'messages.upsert',
        instance: { instanceName: 'Hooked session', instanceId: id },
        data: {
          key: { remoteJid: `${from}@sandbox.chat`, fromMe: false, id: inbound.body.data.messageId },
          message: { conversation: 'Oi!', messageTimestamp: expect.stringMatching(/^\d{10}$/) },
          messageType: 'conversation',
          pushName: 'Ana',
        },
      });
      expect(Math.abs(Number(body.data.message.messageTimestamp) - Date.now() / 1000)).toBeLessThan(30);
      expect(receiver.of('qr.update')).toHaveLength(0); // not a session event

      // Narrow the subscription: connection changes no longer arrive.
      await api.post(`/v1/chat/instances/${id}/webhook`, { key: tenant.liveKey, body: { url: `${receiver.url}/s`, events: ['messages.upsert'] } });
      // Changes from before the narrowing may still be on their way; what the drop causes carries its reason.
      const causedByDrop = (r: { body: string }) => JSON.parse(r.body).data.reason !== null;
      expect(receiver.of('connection.update').filter(causedByDrop)).toHaveLength(0);
      await api.post(`/sandbox/instances/${id}/drop`);
      await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => r.body.data.status === 'connected');
      await sleep(300);
      expect(receiver.of('connection.update').filter(causedByDrop)).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('shows a session instance its secret once at create, and rotates secrets in both variants and GraphQL with a day of double signatures', async () => {
    const receiver = await startReceiver();
    try {
      const session = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: 'Rotating session', webhookUrl: `${receiver.url}/rs` } });
      expect(session.status).toBe(201);
      const firstSecret: string = session.body.data.webhookSecret;
      expect(firstSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      const id: string = session.body.data.instanceId;
      expect(JSON.stringify((await api.get(`/chat/instances/${id}`, { cookie: tenant.cookie })).body)).not.toContain(firstSecret);

      const rotated = await api.post(`/chat/instances/${id}/webhook/secret`, { cookie: tenant.cookie });
      expect(rotated.status).toBe(200);
      expect(rotated.body).toEqual({ success: true, data: { webhookSecret: expect.stringMatching(/^whsec_/) } });
      const secondSecret: string = rotated.body.data.webhookSecret;
      expect(secondSecret).not.toBe(firstSecret);

      // A delivery right after the rotation verifies with either secret; X-Hub-Signature-256 is the old one's.
      const tested = await api.post(`/v1/chat/instances/${id}/webhook/test`, { key: tenant.liveKey });
      expect(tested.body.data.status).toBe('sent');
      const delivery = receiver.of('webhook.test').at(-1)!;
      expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [firstSecret, secondSecret]) {
        expect(() => new Webhook(secret.slice(6)).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();
      }
      expect(await verifyHubSignature(firstSecret, delivery.body, String(delivery.headers['x-hub-signature-256']))).toBe(true);

      // The v1 path and GraphQL rotate too; each shows its new secret once.
      const v1 = await api.post(`/v1/chat/instances/${id}/webhook/secret`, { key: tenant.liveKey });
      expect(v1.status).toBe(200);
      const graphql = await api.operation(RotateWebhookSecret, { instanceId: id }, { key: tenant.liveKey });
      const result = graphql.body.data!.rotateWebhookSecret;
      if (result.userErrors.length) throw new Error(JSON.stringify(result));
      expect(new Set([firstSecret, secondSecret, v1.body.data.webhookSecret, result.webhookSecret]).size).toBe(4);

      // Bad inputs: another tenant's instance, an unknown one, no credential.
      const stranger = await createTenant(gw.gateway, api);
      expect((await api.post(`/v1/chat/instances/${id}/webhook/secret`, { key: stranger.liveKey })).status).toBe(403);
      expect((await api.post('/chat/instances/00000000-0000-4000-8000-000000000000/webhook/secret', { cookie: tenant.cookie })).status).toBe(404);
      expect((await api.post(`/chat/instances/${id}/webhook/secret`)).status).toBe(401);
    } finally {
      await receiver.close();
    }
  });

  it('through the rotation window every delivery verifies for a receiver on the old secret (X-Hub-Signature-256) and one on the new (webhook-signature)', async () => {
    const receiver = await startReceiver();
    try {
      const created = await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: `Rotating v1 ${Math.random()}`, webhookUrl: `${receiver.url}/rotating` } });
      expect(created.status, created.text).toBe(201);
      const { id, webhookSecret: oldSecret } = created.body.data as { id: string; webhookSecret: string };
      await eventually(async () => receiver.of('qr.update').length, (n) => n >= 1);
      const rotated = await api.post(`/v1/chat/instances/${id}/webhook/secret`, { key: tenant.liveKey });
      expect(rotated.status, rotated.text).toBe(200);
      const newSecret: string = rotated.body.data.webhookSecret;
      const before = receiver.received.length;

      // Deliveries of several events after the rotation: the test one, the pairing's, a sent message's.
      expect((await api.post(`/v1/chat/instances/${id}/webhook/test`, { key: tenant.liveKey })).body.data.status).toBe('sent');
      const code = decodeQr((await api.get(`/v1/chat/instances/${id}/qr`, { key: tenant.liveKey })).body.data.qrCode);
      await api.post('/sandbox/scan', { body: { code, phone: newPhone() } });
      await eventually(() => api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected');
      const sent = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to: newPhone().slice(1), text: 'after the rotation', instanceId: id } });
      expect(sent.status, sent.text).toBe(200);
      const after = await eventually(
        async () => receiver.received.slice(before),
        (list) => list.some((call) => call.headers['x-webhook-event'] === 'messages.update') && list.some((call) => call.headers['x-webhook-event'] === 'connection.update'),
      );
      expect(after.length).toBeGreaterThanOrEqual(3);
      for (const call of after) {
        const event = String(call.headers['x-webhook-event']);
        // A receiver that has not switched yet: the documented X-Hub-Signature-256 check with the old secret.
        expect(await verifyHubSignature(oldSecret, call.body, String(call.headers['x-hub-signature-256'])), event).toBe(true);
        // A receiver that switched: the Standard Webhooks header with the new secret (or the old one).
        expect(() => new Webhook(newSecret.slice('whsec_'.length)).verify(call.body, call.headers as Record<string, string>), event).not.toThrow();
        expect(() => new Webhook(oldSecret.slice('whsec_'.length)).verify(call.body, call.headers as Record<string, string>), event).not.toThrow();
      }
    } finally {
      await receiver.close();
    }
  });

  it('checks webhook event names against the instance\'s own variant', async () => {
    const session = (await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: 'Session events' } })).body.data.instanceId;
    const v1 = (await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'V1 events' } })).body.data.id;
    const set = (id: string, events: string[]) =>
      api.post(`/v1/chat/instances/${id}/webhook`, { key: tenant.liveKey, body: { url: 'https://hooks.example.com/e', events } });
    const sessionOk = await set(session, ['groups.update', 'presence.update']);
    expect(sessionOk.status).toBe(200);
    expect(sessionOk.body.data.events).toEqual(['groups.update', 'presence.update']);
    const sessionBad = await set(session, ['qr.update']);
    expect(sessionBad.status).toBe(400);
    expect(sessionBad.body.error.message).toBe(
      'events: unknown event name(s) qr.update; allowed: messages.upsert, messages.update, messages.delete, connection.update, groups.update, groups.upsert, contacts.update, presence.update, chats.upsert, chats.update, chats.delete, contacts.upsert, history.sync, call, instance.restricted',
    );
    expect((await set(v1, ['qr.update'])).status).toBe(200);
    const v1Bad = await set(v1, ['presence.update', 'nope']);
    expect(v1Bad.status).toBe(400);
    expect(v1Bad.body.error.message).toBe(
      'events: unknown event name(s) presence.update, nope; allowed: messages.upsert, messages.update, messages.delete, connection.update, qr.update, call, instance.restricted',
    );
  });

  async function deliveryAttempts(answer: Parameters<typeof startReceiver>[0]) {
    const receiver = await startReceiver(answer);
    const created = await api.post('/v1/chat/instances', {
      key: tenant.liveKey,
      body: { name: `retry ${Math.random()}`, webhookUrl: `${receiver.url}/r`, webhookEvents: ['qr.update'] },
    });
    return { receiver, id: created.body.data.id as string };
  }

  it('retries a failing receiver with the same id and bytes: two failures then 200 make exactly three attempts', async () => {
    const { receiver, id } = await deliveryAttempts((call) => ({ status: call <= 2 ? 500 : 200 }));
    try {
      await eventually(async () => receiver.received.length, (n) => n === 3, 10_000);
      await sleep(1500);
      expect(receiver.received).toHaveLength(3);
      expect(new Set(receiver.received.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
      for (let i = 1; i < 3; i++) expect(receiver.received[i]!.at - receiver.received[i - 1]!.at).toBeGreaterThanOrEqual(950);
      const log = await api.get(`/v1/chat/instances/${id}/webhook/deliveries`, { key: tenant.liveKey });
      expect(log.body.data[0]).toMatchObject({ event: 'qr.update', status: 'delivered', attempts: [{ number: 1, statusCode: 500 }, { number: 2, statusCode: 500 }, { number: 3, statusCode: 200 }] });
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['answers 500', () => ({ status: 500 })],
    ['is slower than the timeout', () => ({ status: 200, delayMs: 800 })],
    ['redirects (3xx is a failure)', () => ({ status: 302, headers: { location: 'http://127.0.0.1:1/' } })],
  ])('gives a receiver that %s exactly four attempts, then fails the delivery', async (_label, answer) => {
    const { receiver, id } = await deliveryAttempts(answer);
    try {
      await eventually(async () => receiver.received.length, (n) => n === 4, 12_000);
      const log = await eventually(
        () => api.get(`/v1/chat/instances/${id}/webhook/deliveries`, { key: tenant.liveKey }),
        (r) => r.body.data[0]?.status === 'failed',
      );
      await sleep(1500);
      expect(receiver.received).toHaveLength(4);
      expect(log.body.data[0].attempts).toHaveLength(4);
      expect(log.body.data[0].attempts.every((a: { error: string | null }) => a.error)).toBe(true);

      // A manual redelivery starts a new delivery of the same bytes.
      const redo = await api.post(`/v1/chat/instances/${id}/webhook/deliveries/${log.body.data[0].id}/redeliver`, { key: tenant.liveKey });
      expect(redo.status).toBe(200);
      await eventually(async () => receiver.received.length, (n) => n >= 5);
      expect(receiver.received[4]!.body).toBe(receiver.received[0]!.body);
    } finally {
      await receiver.close();
    }
  });
});
