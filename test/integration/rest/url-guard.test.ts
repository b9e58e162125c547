import { describe, expect, it } from 'vitest';
import { createOutboundHttp } from '../../../src/infra/outbound-http.js';
import { insertInstance } from '../../factories/instances.js';
import { failure } from '../../helpers/http.js';
import { gatewaySuite } from '../../kit/suite.js';
import { MODES } from '../../kit/modes.js';
import { startReceiver } from '../../helpers/receiver.js';

const PRIVATE_URLS = [
  'https://127.0.0.1/hook',
  'https://localhost/hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://10.1.2.3/hook',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'http://hooks.example.com/plain-http',
];

describe('server-side request forgery guard (WEBHOOK_ALLOW_INSECURE=false)', () => {

  const suite = gatewaySuite(MODES[0]!, { tenants: ['enterprise'] });

  it.each(PRIVATE_URLS)('refuses %s on create, PUT and POST …/webhook', async (url) => {
    const create = await suite.api.post('/v1/chat/instances', { key: suite.tenant.liveKey, body: { name: `guard ${Math.random()}`, webhookUrl: url } });
    expect(create.status).toBe(400);
    expect(create.body).toEqual(failure('invalid_request'));
    const session = await suite.api.post('/chat/instances', { cookie: suite.tenant.cookie, body: { name: `g ${Math.random()}`.slice(0, 40), webhookUrl: url } });
    expect(session.status).toBe(400);

    const instance = await insertInstance(suite.gw.gateway, suite.tenant.tenantId, { state: 'created' });
    const put = await suite.api.put(`/v1/chat/instances/${instance.id}`, { key: suite.tenant.liveKey, body: { webhookUrl: url } });
    expect(put.status).toBe(400);
    const hook = await suite.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: suite.tenant.liveKey, body: { url } });
    expect(hook.status).toBe(400);
    expect((await suite.gw.gateway.infra.db.prisma.instance.findUnique({ where: { id: instance.id } }))?.webhookUrl).toBeNull();
  });

  it('refuses the same for send-media URLs', async () => {
    const instance = await insertInstance(suite.gw.gateway, suite.tenant.tenantId, { state: 'connected' });
    const session = await suite.gw.gateway.services.auth.login({ email: suite.tenant.email, password: suite.tenant.password }, '10.0.0.1');
    for (const mediaUrl of ['https://127.0.0.1/a.png', 'https://169.254.169.254/a.png', 'http://files.example.com/a.png']) {
      const response = await suite.api.post(`/chat/instances/${instance.id}/send-media`, {
        cookie: `auth-session=${session.token}`,
        body: { to: '5511987654321', mediaUrl, mediaType: 'image' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/mediaUrl/);
    }
  });

  it('refuses to connect to a private address even when the URL got through (DNS answers change)', async () => {
    const receiver = await startReceiver();
    const http = createOutboundHttp({ allowInsecure: false, timeoutMs: 2000 });
    try {
      const port = new URL(receiver.url).port;
      // "localhost" resolves to loopback at connect time; 127.0.0.1 is checked without DNS.
      for (const url of [`https://localhost:${port}/`, `http://localhost:${port}/`, `http://127.0.0.1:${port}/`]) {
        await expect(http.send('POST', url, { body: '{}', maxBytes: 10 })).rejects.toThrow(/non-public address/);
      }
      expect(receiver.received).toHaveLength(0);
      // The same client with insecure URLs allowed reaches it.
      const open = createOutboundHttp({ allowInsecure: true, timeoutMs: 2000 });
      expect((await open.send('POST', `${receiver.url}/`, { body: '{}', maxBytes: 10 })).statusCode).toBe(200);
      await open.close();
    } finally {
      await http.close();
      await receiver.close();
    }
  });
});
