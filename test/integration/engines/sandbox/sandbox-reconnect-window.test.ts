import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually } from '../../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../../kit/gateway.js';
import { client } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';

describe.each(MODES)('a phone writing while its instance reconnects — $name', (mode) => {
  let gw: TestGateway;
  let api: ReturnType<typeof client>;
  let tenant: TestTenant;

  beforeAll(async () => {
    // A dropped connection comes straight back, so the phone's messages land in the reconnect itself.
    gw = await startTestGateway(mode, { env: { SANDBOX_RECONNECT_DELAY_MS: '0' } });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('is delivered or held at every moment of a drop and its reconnect, never refused as an unknown phone', { timeout: 60_000 }, async () => {
    const instance = await connectedV1Instance(api, tenant.testKey, 'reconnecting line');
    const answers: number[] = [];
    for (let round = 0; round < 15; round++) {
      expect((await api.post(`/sandbox/instances/${instance.id}/drop`)).status).toBe(200);
      for (let i = 0; i < 4; i++) {
        const sent = await api.post('/sandbox/messages', { body: { from: '5511988880000', to: instance.phone, text: `round ${round}.${i}` } });
        answers.push(sent.status);
      }
      await eventually(async () => (await api.get(`/v1/chat/instances/${instance.id}`, { key: tenant.testKey })).body.data.status, (status) => status === 'connected');
    }
    expect(answers.filter((status) => status !== 200)).toEqual([]);
  });
});
