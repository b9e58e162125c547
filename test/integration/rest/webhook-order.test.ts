import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { type Client, client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { type Received, startReceiver } from '../../helpers/receiver.js';

const MESSAGES = 10;

/** Which message and step a delivery is: `upsert`, or the status of an update. */
const stepOf = (call: Received) => {
  const body = JSON.parse(call.body);
  return { messageId: body.data.messageId as string, step: body.event === 'messages.upsert' ? 'upsert' : (body.data.status as string) };
};

describe.each(MODES)('Webhooks: the events of one message leave in the order they happened — $name', (mode) => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;
  /** Refuses the first attempt of every messages.upsert: the gateway retries it a second later. */
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const accepted: Received[] = [];

  beforeAll(async () => {
    gw = await startTestGateway(mode, { env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS: '0,1,1,1' } });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
    const refusedOnce = new Set<string>();
    receiver = await startReceiver((_call, received) => {
      const id = String(received.headers['x-webhook-id']);
      if (received.headers['x-webhook-event'] === 'messages.upsert' && !refusedOnce.has(id)) {
        refusedOnce.add(id);
        return { status: 503 };
      }
      accepted.push(received);
      return { status: 200 };
    });
    const instance = await connectedV1Instance(api, tenant.liveKey, 'ordered line');
    await eventually(() => api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected');
    const hooked = await api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: tenant.liveKey, body: { url: receiver.url, events: ['messages.upsert', 'messages.update'] } });
    expect(hooked.status, hooked.text).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await gw?.close();
  });

  it('upsert, then sent, then delivered, then read, even when the upsert needs a retry', { timeout: 60_000 }, async () => {
    const ids: string[] = [];
    for (let n = 0; n < MESSAGES; n++) {
      const to = newPhone().slice(1);
      const sent = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: `in order ${n}` } });
      expect(sent.status, sent.text).toBe(200);
      ids.push(sent.body.data.id);
      await eventually(() => api.get(`/v1/messages/status/${sent.body.data.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'delivered');
      expect((await api.post(`/sandbox/phones/${to}/read`, { body: { messageId: sent.body.data.id } })).status).toBe(200);
    }
    // Every message's four events reach the receiver…
    await eventually(
      async () => ids.map((id) => accepted.map(stepOf).filter((s) => s.messageId === id).length),
      (counts) => counts.every((count) => count === 4),
      40_000,
    );
    // …each message's in the order they happened: nothing of it before its upsert was taken.
    for (const id of ids) {
      const arrived = receiver.received.map(stepOf).filter((s) => s.messageId === id);
      expect(arrived.map((s) => s.step), id).toEqual(['upsert', 'upsert', 'sent', 'delivered', 'read']);
    }
  });
});
