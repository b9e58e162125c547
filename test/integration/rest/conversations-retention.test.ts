import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../factories/sandbox.js';
import { digitsOf } from '../../factories/conversations.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { type Client, client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

/** Retention and conversations (docs/conversations.md): messages go, history included; a chat left empty keeps its row and name. */
describe.each(MODES)('retention of chat messages — $name', (mode) => {
  let gw: TestGateway;
  let api: Client;
  let tenant: TestTenant;

  beforeAll(async () => {
    gw = await startTestGateway(mode, { env: { RETENTION_MESSAGES: '3s' } });
    api = client(gw.url);
    tenant = await createTenant(gw.gateway, api, 'enterprise');
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('removes received, sent and history messages past their retention; each chat stays with its name', { timeout: 60_000 }, async () => {
    const key = { key: tenant.liveKey };
    const instance = await connectedV1Instance(api, tenant.liveKey, `retained chats ${Date.now()}`);
    await eventually(() => api.get(`/v1/chat/instances/${instance.id}`, key), (r) => r.body.data.status === 'connected');
    const [writer, remembered] = [newPhone(), newPhone()];
    const wrote = await api.post('/sandbox/messages', { body: { from: writer, to: instance.phone, text: 'gone in three seconds', pushName: 'Rita Retained' } });
    expect(wrote.status, wrote.text).toBe(200);
    const sent = await api.post(`/v1/chat/instances/${instance.id}/messages`, { ...key, body: { to: digitsOf(writer), text: 'and so is this' } });
    expect(sent.status, sent.text).toBe(200);
    // A chat only the phone's history tells of: what its engine hands over at linking.
    await gw.gateway.services.engineEvents.history(instance.id, {
      key: `retention-${Date.now()}`,
      chats: [{ chat: digitsOf(remembered), name: 'Old Friend' }],
      contacts: [],
      messages: [
        {
          chat: digitsOf(remembered),
          fromMe: false,
          // Its own time is now: older than the 3 s retention, the sweep could take it before it is read.
          at: new Date(),
          message: { networkMessageId: `history-${Date.now()}`, from: digitsOf(remembered), type: 'text', text: 'from before the link', location: null, pushName: null },
        },
      ],
      progress: 100,
      done: true,
    });
    const chatPath = (phone: string, rest = '') => `/v1/chat/instances/${instance.id}/chats/${digitsOf(phone)}${rest}`;
    const history = await api.get(chatPath(remembered, '/messages'), key);
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.map((message: { text: string; history: boolean }) => [message.text, message.history])).toEqual([['from before the link', true]]);

    for (const phone of [writer, remembered]) {
      await eventually(async () => (await api.get(chatPath(phone, '/messages'), key)).body.data.length, (n) => n === 0, 30_000);
    }
    const chats = await api.get(`/v1/chat/instances/${instance.id}/chats`, key);
    expect(chats.status, chats.text).toBe(200);
    const byId = Object.fromEntries(chats.body.data.map((chat: { id: string }) => [chat.id, chat]));
    expect(byId[digitsOf(writer)]).toMatchObject({ id: digitsOf(writer), name: 'Rita Retained', lastMessage: null });
    expect(byId[digitsOf(remembered)]).toMatchObject({ id: digitsOf(remembered), name: 'Old Friend', lastMessage: null });
    expect((await api.get(chatPath(remembered), key)).body.data).toEqual(byId[digitsOf(remembered)]);
    const listed = await api.get(`/v1/messages/list?instanceId=${instance.id}`, key);
    expect(listed.body.pagination.total).toBe(0);
  });
});
