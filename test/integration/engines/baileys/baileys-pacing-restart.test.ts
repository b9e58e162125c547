import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { createTenant } from '../../../factories/tenants.js';
import { client } from '../../../helpers/http.js';
import { startTestGateway, type TestGateway } from '../../../kit/gateway.js';
import { MODES } from '../../../kit/modes.js';
import { type ChatNetwork, startChatNetwork } from '../../../networks/chat-network/index.js';

// Paced sending across a restart (docs/settings.md, "Sending"): the interval counts from the last
// `sentAt`, so the gateway that comes back waits out what is left of it instead of sending at once.
describe.each(MODES)('CHAT-BAILEYS: pacing across a restart — $name', (mode) => {
  const INTERVAL_MS = 10_000;
  let network: ChatNetwork;
  const open: TestGateway[] = [];

  beforeAll(async () => {
    network = await startChatNetwork();
  });
  afterAll(async () => {
    for (const gw of open.reverse()) await gw.close().catch(() => {});
    await network?.close();
  });

  it('the next message reaches the network no sooner than the interval after the last one, restart or not', async () => {
    const env = baileysEnv(network, mode);
    const first = await startTestGateway(mode, { env });
    open.push(first);
    let api = client(first.url);
    const tenant = await createTenant(first.gateway, api);
    const key = tenant.liveKey;
    const instance = await pairedV1(api, key, network, `pacing restart ${Date.now()}`);
    const own = instance.phone.slice(1);
    const set = await api.put(`/v1/chat/instances/${instance.id}/settings`, { key, body: { sending: { minIntervalMs: INTERVAL_MS } } });
    expect(set.status, set.text).toBe(200);

    const to = newNetworkPhone();
    const send = async (text: string) => (await api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to: to.slice(1), text } })).body.data;
    await send('before the restart');
    await network.waitForInbox(to, 1, 20_000);
    // The second waits its turn; the gateway stops before it comes.
    expect((await send('after the restart')).status).toBe('queued');
    await first.gateway.close();

    const second = await startTestGateway(mode, { env, reuse: first });
    open.push(second);
    api = client(second.url);
    await eventually(() => api.get(`/v1/chat/instances/${instance.id}`, { key }), (r) => r.body.data?.status === 'connected', 30_000);
    await network.waitForInbox(to, 2, 30_000);
    const times = network.received().filter((stanza) => stanza.phone === own && stanza.to.startsWith(`${to.slice(1)}@`)).map((stanza) => stanza.at.getTime());
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(INTERVAL_MS);
  }, 90_000);
});
