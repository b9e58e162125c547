import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

describe('a local webhook URL is refused naming the setting that allows it', () => {
  let gw: TestGateway;
  let tenant: TestTenant;
  beforeAll(async () => {
    gw = await startTestGateway(MODES[0]!);
    tenant = await createTenant(gw.gateway, client(gw.url));
  });
  afterAll(async () => {
    await gw?.close();
  });

  it.each([
    ['http://localhost:4000/hook', 'webhookUrl: must be an https:// URL (the gateway setting WEBHOOK_ALLOW_INSECURE=true allows http:// and local addresses, for local development only)'],
    ['https://127.0.0.1:4000/hook', 'webhookUrl: must point to a public address, not a private, loopback or link-local one (the gateway setting WEBHOOK_ALLOW_INSECURE=true allows http:// and local addresses, for local development only)'],
    // Not a local receiver: no setting makes it work, so none is named.
    ['ftp://files.example.com/hook', 'webhookUrl: must be an https:// URL'],
  ])('%s', async (webhookUrl, message) => {
    const answer = await client(gw.url).post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'local hook', webhookUrl } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: { code: 'invalid_request', message } });
  });
});
