// The control API over HTTP (what a person uses with curl), its refusals, and the runnable entry.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCloudApi, type CloudApi } from './index.js';
import { NUMBER, USER, control, graph, messagesOf, sendText, signatureValid, startReceiver, statusesOf, type Receiver } from './test-helpers.js';

let api: CloudApi;
let receiver: Receiver;
beforeEach(async () => {
  api = await startCloudApi({ webhookRetryDelaysMs: [50], statusDelayMs: 10 });
  receiver = await startReceiver();
});
afterEach(async () => {
  await api.close();
  await receiver.close();
});

describe('control API', () => {
  it('drives a whole exchange: number, webhook with verification, user message, send, statuses', async () => {
    const added = await control(api, 'POST', '/numbers', NUMBER);
    expect(added.status).toBe(201);
    expect(added.json).toEqual({ success: true, data: expect.objectContaining({ phoneNumberId: NUMBER.phoneNumberId, businessAccountId: NUMBER.businessAccountId }) });
    expect((await control(api, 'GET', '/numbers')).json.data).toHaveLength(1);

    const webhook = await control(api, 'PUT', '/webhook', { url: receiver.url, verifyToken: 'verify-me', verify: true });
    expect(webhook.status).toBe(200);
    expect(webhook.json.data).toMatchObject({ url: receiver.url, verifyToken: 'verify-me', verification: { status: 200, verified: true } });
    expect((await control(api, 'POST', '/webhook/verify', { verifyToken: 'nope' })).json.data).toMatchObject({ status: 403, verified: false });

    const inbound = await control(api, 'POST', `/numbers/${NUMBER.phoneNumberId}/customer-messages`, {
      from: `+${USER}`,
      message: { type: 'text', text: 'hi', profileName: 'Sheena' },
    });
    expect(inbound.json.data.wamid).toMatch(/^wamid\./);
    await receiver.waitFor(1);
    expect(messagesOf(receiver)[0]).toMatchObject({ id: inbound.json.data.wamid, from: USER, text: { body: 'hi' } });

    expect((await control(api, 'PUT', `/numbers/${NUMBER.phoneNumberId}/status-script`, { script: ['sent', { status: 'read', delayMs: 5 }] })).status).toBe(200);
    const sent = await sendText(api, 'reply');
    expect(sent.status).toBe(200);
    await receiver.waitFor(3);
    expect(statusesOf(receiver).map((s) => s.status)).toEqual(['sent', 'read']);

    const listed = await control(api, 'GET', `/sent?phoneNumberId=${NUMBER.phoneNumberId}`);
    expect(listed.json.data).toMatchObject([{ wamid: sent.json.messages[0].id, to: USER, type: 'text', body: { text: { body: 'reply' } } }]);
    expect((await control(api, 'GET', '/requests')).json.data).toMatchObject([{ method: 'POST', status: 200 }]);

    await api.waitForWebhooksIdle();
    const deliveries = await control(api, 'GET', '/deliveries');
    expect(deliveries.json.data.pending).toBe(0);
    expect(deliveries.json.data.attempts).toHaveLength(3);
    const first = deliveries.json.data.attempts[0];
    expect(signatureValid(NUMBER.appSecret, Buffer.from(first.body), first.signature)).toBe(true);
    expect((await control(api, 'GET', '/webhook')).json.data).toMatchObject({ url: receiver.url, pending: 0 });
  });

  it('scripts failures, windows, tokens, batches, errors and duplicates', async () => {
    await control(api, 'POST', '/numbers', NUMBER);
    await control(api, 'PUT', '/webhook', { url: receiver.url });
    const id = NUMBER.phoneNumberId;

    expect((await sendText(api)).json.error.code).toBe(131047);
    expect((await control(api, 'PUT', `/numbers/${id}/windows/${USER}`, {})).status).toBe(200);
    expect((await control(api, 'POST', `/numbers/${id}/fail-next`, { code: 368 })).status).toBe(200);
    expect((await sendText(api)).status).toBe(403);
    expect((await sendText(api)).status).toBe(200);
    expect((await control(api, 'DELETE', `/numbers/${id}/windows/${USER}`)).status).toBe(200);
    expect((await sendText(api)).json.error.code).toBe(131047);
    expect((await control(api, 'PUT', '/window-mode', { mode: 'async' })).json.data).toEqual({ mode: 'async' });
    expect((await sendText(api)).status).toBe(200);

    expect((await control(api, 'POST', `/numbers/${id}/expire-token`)).status).toBe(200);
    expect((await graph(api, 'GET', `/v23.0/${id}`)).status).toBe(401);
    expect((await control(api, 'PUT', `/numbers/${id}/token`, { accessToken: 'EAAG-new' })).status).toBe(200);
    expect((await graph(api, 'GET', `/v23.0/${id}`, undefined, 'EAAG-new')).status).toBe(200);

    await api.waitForWebhooksIdle();
    const before = receiver.hits.length;
    expect((await control(api, 'POST', '/webhook/batch-next', { count: 2 })).status).toBe(200);
    const batch = await control(api, 'POST', `/numbers/${id}/customer-messages`, {
      messages: [
        { from: USER, message: 'one' },
        { from: '447700900123', message: { type: 'image', data: Buffer.from('img').toString('base64'), caption: 'c' } },
      ],
    });
    expect(batch.json.data.wamids).toHaveLength(2);
    await control(api, 'POST', `/numbers/${id}/customer-messages`, { from: USER, message: 'two' });
    await control(api, 'POST', `/numbers/${id}/errors`, { code: 130429 });
    await control(api, 'POST', `/numbers/${id}/customer-messages`, { from: USER, message: 'three' });
    await receiver.waitFor(before + 3);
    const bodies = receiver.bodies().slice(before);
    // One POST for the customerMessages call (batches of its own), one for the batch of two events, one for the message after it.
    expect(bodies.map((b) => b.entry[0]?.changes.length)).toEqual([1, 2, 1]);

    const redelivered = await control(api, 'POST', '/deliveries/1/redeliver');
    expect(redelivered.json.data.deliveryId).toBeGreaterThan(1);
    await receiver.waitFor(before + 4);
    expect(receiver.hits.at(-1)?.text).toBe(receiver.hits.find((h) => h.method === 'POST')?.text);
  });

  it('lists its routes', async () => {
    const res = await control(api, 'GET', '');
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(expect.arrayContaining([expect.stringMatching(/^POST \/control\/numbers /)]));
  });

  const bad: Array<[string, string, string, unknown, number, string]> = [
    ['an unknown route', 'GET', '/nothing', undefined, 404, 'not_found'],
    ['a wrong method', 'DELETE', '/numbers', undefined, 405, 'method_not_allowed'],
    ['a body that is no JSON', 'POST', '/numbers', '{nope', 400, 'invalid_request'],
    ['a number without token', 'POST', '/numbers', { phoneNumberId: '1', displayPhoneNumber: '15550000000', appSecret: 's' }, 400, 'invalid_request'],
    ['a number with letters', 'POST', '/numbers', { ...NUMBER, phoneNumberId: 'abc' }, 400, 'invalid_request'],
    ['an unknown field', 'POST', '/numbers', { ...NUMBER, colour: 'red' }, 400, 'invalid_request'],
    ['an unknown number', 'POST', '/numbers/999/fail-next', { code: 100 }, 404, 'not_found'],
    ['an undocumented fail code', 'POST', `/numbers/${NUMBER.phoneNumberId}/fail-next`, { code: 12345 }, 400, 'invalid_request'],
    ['zero times', 'POST', `/numbers/${NUMBER.phoneNumberId}/fail-next`, { code: 100, times: 0 }, 400, 'invalid_request'],
    ['an unknown status', 'PUT', `/numbers/${NUMBER.phoneNumberId}/status-script`, { script: ['seen'] }, 400, 'invalid_request'],
    ['a script that is no list', 'PUT', `/numbers/${NUMBER.phoneNumberId}/status-script`, { script: 'sent' }, 400, 'invalid_request'],
    ['a code on sent', 'PUT', `/numbers/${NUMBER.phoneNumberId}/status-script`, { script: [{ status: 'sent', code: 1 }] }, 400, 'invalid_request'],
    ['a webhook URL of another scheme', 'PUT', '/webhook', { url: 'ftp://example.com/' }, 400, 'invalid_request'],
    ['a webhook without URL', 'PUT', '/webhook', {}, 400, 'invalid_request'],
    ['a verification with nothing set', 'POST', '/webhook/verify', {}, 400, 'invalid_request'],
    ['a message without from', 'POST', `/numbers/${NUMBER.phoneNumberId}/customer-messages`, { message: 'hi' }, 400, 'invalid_request'],
    ['a message of unknown type', 'POST', `/numbers/${NUMBER.phoneNumberId}/customer-messages`, { from: USER, message: { type: 'hologram' } }, 400, 'invalid_request'],
    ['an image without data', 'POST', `/numbers/${NUMBER.phoneNumberId}/customer-messages`, { from: USER, message: { type: 'image' } }, 400, 'invalid_request'],
    ['an image with data that is no base64', 'POST', `/numbers/${NUMBER.phoneNumberId}/customer-messages`, { from: USER, message: { type: 'image', data: '***' } }, 400, 'invalid_request'],
    ['an empty batch', 'POST', `/numbers/${NUMBER.phoneNumberId}/customer-messages`, { messages: [] }, 400, 'invalid_request'],
    ['a window for no phone', 'PUT', `/numbers/${NUMBER.phoneNumberId}/windows/abc`, {}, 400, 'invalid_request'],
    ['a malformed path escape', 'PUT', `/numbers/${NUMBER.phoneNumberId}/windows/%E0%A4%A`, {}, 400, 'invalid_request'],
    ['a batch of zero', 'POST', '/webhook/batch-next', { count: 0 }, 400, 'invalid_request'],
    ['an unknown window mode', 'PUT', '/window-mode', { mode: 'sometimes' }, 400, 'invalid_request'],
    ['an unknown delivery', 'POST', '/deliveries/42/redeliver', undefined, 404, 'not_found'],
  ];
  it.each(bad)('refuses %s', async (_name, method, path, body, status, code) => {
    await control(api, 'POST', '/numbers', NUMBER);
    const res = await control(api, method, path, body);
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ success: false, error: { code, message: expect.any(String) } });
  });
});

describe('cli', () => {
  it('starts, prints CLOUD_API_URL and example curl lines, and serves the control API', async () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'silent' } });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no CLOUD_API_URL line; got: ${out}`)), 25_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /^CLOUD_API_URL=(\S+)$/m.exec(out);
          if (match && /curl .*\/control\/numbers/.test(out)) {
            clearTimeout(timer);
            resolve(match[1] as string);
          }
        });
        child.once('exit', (code) => reject(new Error(`cli exited with ${code}: ${out}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${url}/control/numbers`);
      expect(await res.json()).toEqual({ success: true, data: [] });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
