// Status webhooks for accepted sends, each script: default, out of order, repeated, read without delivered,
// failure only by webhook; pricing and conversation where the notes say they appear.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CloudApi } from './index.js';
import { NUMBER, USER, graph, sendText, setup, statusesOf, type Receiver } from './test-helpers.js';

let api: CloudApi;
let receiver: Receiver;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ api, receiver, close } = await setup());
  api.openWindow(NUMBER.phoneNumberId, USER);
});
afterEach(async () => close());

/** Sends a text and waits for `count` statuses of it. */
async function sendAndCollect(count: number, send = () => sendText(api)) {
  const res = await send();
  expect(res.status).toBe(200);
  const wamid = res.json.messages[0].id as string;
  await receiver.waitFor(count);
  await api.waitForWebhooksIdle();
  return { wamid, statuses: statusesOf(receiver, wamid) };
}

describe('status scripts', () => {
  it('reports sent, delivered, read by default, with pricing on sent and delivered and conversation before v24', async () => {
    const { wamid, statuses } = await sendAndCollect(3);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    for (const status of statuses) {
      expect(status).toMatchObject({ id: wamid, recipient_id: USER, timestamp: expect.stringMatching(/^\d{10}$/) });
    }
    const [sent, delivered, read] = statuses;
    expect(Object.keys(sent ?? {})).toEqual(['id', 'status', 'timestamp', 'recipient_id', 'conversation', 'pricing']);
    // A free-form reply inside the window is a free service message.
    expect(sent?.pricing).toEqual({ billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' });
    expect(sent?.conversation).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), expiration_timestamp: expect.stringMatching(/^\d{10}$/), origin: { type: 'service' } });
    expect(delivered?.pricing).toEqual(sent?.pricing);
    expect(delivered?.conversation).toEqual({ id: sent?.conversation.id, origin: { type: 'service' } });
    expect(Object.keys(read ?? {})).toEqual(['id', 'status', 'timestamp', 'recipient_id']);
  });

  it('bills templates and leaves conversation out from v24.0', async () => {
    const template = { messaging_product: 'whatsapp', to: USER, type: 'template', template: { name: 'promo', language: { code: 'en' } } };
    const { statuses } = await sendAndCollect(3, () => graph(api, 'POST', `/v24.0/${NUMBER.phoneNumberId}/messages`, template));
    expect(statuses[0]?.pricing).toEqual({ billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' });
    expect(statuses.every((s) => !('conversation' in s))).toBe(true);
  });

  it('reports out of order when scripted', async () => {
    api.statusScript(NUMBER.phoneNumberId, ['delivered', 'sent', 'read']);
    const { statuses } = await sendAndCollect(3);
    expect(statuses.map((s) => s.status)).toEqual(['delivered', 'sent', 'read']);
  });

  it('repeats a status when scripted', async () => {
    api.statusScript(NUMBER.phoneNumberId, ['sent', 'sent', 'read']);
    const { statuses } = await sendAndCollect(3);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'sent', 'read']);
    expect(statuses.filter((s) => s.pricing)).toHaveLength(2);
  });

  it('reports read without delivered, pricing then riding on read', async () => {
    api.statusScript(NUMBER.phoneNumberId, ['sent', 'read']);
    const { statuses } = await sendAndCollect(2);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'read']);
    expect(statuses[1]?.pricing).toBeDefined();
  });

  it('reports a failure only by webhook, after accepting the send', async () => {
    api.statusScript(NUMBER.phoneNumberId, [{ status: 'failed', code: 131049 }]);
    const { wamid, statuses } = await sendAndCollect(1);
    expect(statuses).toEqual([
      {
        id: wamid,
        status: 'failed',
        timestamp: expect.stringMatching(/^\d{10}$/),
        recipient_id: USER,
        errors: [
          {
            code: 131049,
            title: 'This message was not delivered to maintain healthy ecosystem engagement.',
            message: 'This message was not delivered to maintain healthy ecosystem engagement.',
            error_data: { details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' },
            href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
          },
        ],
      },
    ]);
  });

  it('can fail after sent, and report played for voice', async () => {
    api.statusScript(NUMBER.phoneNumberId, ['sent', { status: 'failed' }]);
    const failed = await sendAndCollect(2);
    expect(failed.statuses.map((s) => [s.status, s.errors?.[0]?.code])).toEqual([
      ['sent', undefined],
      ['failed', 131026],
    ]);
    api.statusScript(NUMBER.phoneNumberId, ['sent', 'delivered', 'read', 'played']);
    const voice = { messaging_product: 'whatsapp', to: USER, type: 'audio', audio: { link: 'https://h.example/v.ogg', voice: true } };
    const played = await sendAndCollect(6, () => graph(api, 'POST', `/v23.0/${NUMBER.phoneNumberId}/messages`, voice));
    expect(played.statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read', 'played']);
  });

  it('takes a script for one user over the number’s', async () => {
    const other = '447700900123';
    api.openWindow(NUMBER.phoneNumberId, other);
    api.statusScript(NUMBER.phoneNumberId, ['sent'], { to: `+${other}` });
    api.statusScript(NUMBER.phoneNumberId, ['delivered']);
    const a = await sendText(api, 'a', other);
    await receiver.waitFor(1);
    const b = await sendText(api, 'b');
    await receiver.waitFor(2);
    expect(statusesOf(receiver, a.json.messages[0].id).map((s) => s.status)).toEqual(['sent']);
    expect(statusesOf(receiver, b.json.messages[0].id).map((s) => s.status)).toEqual(['delivered']);
  });

  it('reports nothing for an empty script', async () => {
    api.statusScript(NUMBER.phoneNumberId, []);
    api.statusScript(NUMBER.phoneNumberId, ['read'], { to: '16505550000' });
    api.openWindow(NUMBER.phoneNumberId, '16505550000');
    await sendText(api, 'quiet');
    // A later send whose status arrives proves the quiet one's had its chance: deliveries leave in order.
    const marker = await sendText(api, 'marker', '16505550000');
    await receiver.waitFor(1);
    expect(statusesOf(receiver).map((s) => s.id)).toEqual([marker.json.messages[0].id]);
  });

  it('can report a status before the send is even answered', async () => {
    api.statusScript(NUMBER.phoneNumberId, [{ status: 'sent', delayMs: 0 }]);
    const res = await sendText(api);
    const answeredAt = Date.now();
    const [attempt] = await api.waitForDeliveries(1);
    expect(attempt?.at).toBeLessThanOrEqual(answeredAt);
    expect(statusesOf(receiver, res.json.messages[0].id)).toHaveLength(1);
  });

  it('echoes biz_opaque_callback_data in every status', async () => {
    const body = { messaging_product: 'whatsapp', to: USER, text: { body: 'x' }, biz_opaque_callback_data: 'order-42' };
    const { statuses } = await sendAndCollect(3, () => graph(api, 'POST', `/v23.0/${NUMBER.phoneNumberId}/messages`, body));
    expect(statuses.map((s) => s.biz_opaque_callback_data)).toEqual(['order-42', 'order-42', 'order-42']);
  });

  it('refuses a script with an unknown status or a code on a non-failed step', () => {
    expect(() => api.statusScript(NUMBER.phoneNumberId, ['sent', 'seen' as never])).toThrow(/unknown status/);
    expect(() => api.statusScript(NUMBER.phoneNumberId, [{ status: 'sent', code: 1 }])).toThrow(/failed/);
    expect(() => api.statusScript('999', ['sent'])).toThrow(/no number/);
  });
});
