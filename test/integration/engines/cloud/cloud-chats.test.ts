// CHAT-CLOUD's conversations (docs/engines.md, "CHAT-CLOUD's chats"): the business API has no history,
// so chats grow from the traffic the number carries; reading a chat is one read mark on its last
// received message; what the API cannot do (chat states, blocks, profiles, history) is kept locally or refused.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import type { CloudApi } from '../../../networks/cloud-api/index.js';
import { cloudWorld } from '../../../kit/worlds/cloud.js';

let sequence = 0;
function newNumber(cloud: CloudApi) {
  sequence++;
  const credentials = {
    phoneNumberId: `21${Date.now() % 1_000_000_000}${sequence}`,
    accessToken: `EAAG-token-${randomBytes(12).toString('hex')}`,
    appSecret: `app-secret-${randomBytes(12).toString('hex')}`,
  };
  cloud.addNumber({ ...credentials, displayPhoneNumber: `1557${String(1_000_000 + ((Date.now() + sequence) % 9_000_000)).slice(0, 7)}` });
  return credentials;
}
const newUser = () => `4422${String(Date.now() % 10_000_000).padStart(7, '0')}${sequence++ % 10}`;

describe.each(MODES)('CHAT-CLOUD chats — $name', (mode) => {
  const world = cloudWorld(mode, { cloud: { statusDelayMs: 20 } });
  const key = () => world.tenant.liveKey;

  async function connected(name: string) {
    const credentials = newNumber(world.cloud);
    const created = await world.api.post('/v1/chat/instances', { key: key(), body: { name: `${name} ${sequence}`, integration: 'CHAT-CLOUD', cloud: credentials } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: key() }), (r) => r.body.data.status === 'connected', 10_000);
    return { id, pnid: credentials.phoneNumberId, base: `/v1/chat/instances/${id}` };
  }

  it('has no history capability: its chats are the messages it carried, and reading one marks only the last received message read', async () => {
    const { pnid, base } = await connected('chats');
    const user = newUser();
    const wamids: string[] = [];
    for (const text of ['one', 'two', 'three']) wamids.push(await world.cloud.customerMessage(pnid, user, { type: 'text', text, profileName: 'Carol' }));
    const chat = await eventually(() => world.api.get(`${base}/chats/${user}`, { key: key() }), (r) => r.body.data?.unreadCount === 3);
    expect(chat.body.data).toMatchObject({ id: user, kind: 'direct', name: 'Carol', unreadCount: 3 });

    const sent = await world.api.post(`${base}/messages`, { key: key(), body: { to: user, text: 'four' } });
    expect(sent.status, sent.text).toBe(200);
    await eventually(() => world.api.get(`/v1/messages/status/${sent.body.data.id}`, { key: key() }), (r) => r.body.data.networkMessageId !== null);
    const list = await eventually(() => world.api.get(`${base}/chats/${user}/messages`, { key: key() }), (r) => r.body.data.length === 4);
    expect(list.body.data.map((m: { text: string; direction: string; history: boolean }) => [m.text, m.direction, m.history])).toEqual([
      ['four', 'out', false],
      ['three', 'in', false],
      ['two', 'in', false],
      ['one', 'in', false],
    ]);
    const chats = await world.api.get(`${base}/chats`, { key: key() });
    expect(chats.body.data.map((c: { id: string }) => c.id)).toEqual([user]);

    const read = await world.api.post(`${base}/chats/${user}/read`, { key: key() });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.unreadCount).toBe(0);
    // The API marks the messages before it read too: one call, on the last one.
    expect(world.cloud.readMarks().filter((m) => m.phoneNumberId === pnid)).toEqual([expect.objectContaining({ messageId: wamids[2], typingIndicator: false })]);

    const integrations = await world.api.get('/v1/integrations', { key: key() });
    const cloud = (integrations.body.data as Array<{ integration: string; capabilities: string[] }>).find((i) => i.integration === 'CHAT-CLOUD')!;
    for (const capability of ['history', 'chat_state', 'block', 'profile']) expect(cloud.capabilities).not.toContain(capability);
  });

  it('keeps archive, pin, mute and blocks in the gateway only, asking nothing of the API; refuses a history request with 422', async () => {
    const { pnid, base } = await connected('local');
    const user = newUser();
    await world.cloud.customerMessage(pnid, user, { type: 'text', text: 'hello' });
    await eventually(() => world.api.get(`${base}/chats/${user}`, { key: key() }), (r) => r.status === 200);
    const asked = () => world.cloud.requests().filter((r) => r.phoneNumberId === pnid).length;
    const before = asked();

    expect((await world.api.post(`${base}/chats/${user}/archive`, { key: key() })).body.data).toMatchObject({ archived: true });
    expect((await world.api.post(`${base}/chats/${user}/pin`, { key: key() })).body.data).toMatchObject({ pinned: true });
    expect((await world.api.post(`${base}/chats/${user}/mute`, { key: key(), body: { until: 'forever' } })).body.data).toMatchObject({ mutedUntil: 'forever' });
    expect((await world.api.post(`${base}/chats/${user}/unread`, { key: key() })).status).toBe(200);
    const blocked = await world.api.post(`${base}/contacts/${user}/block`, { key: key() });
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.body.data).toMatchObject({ phone: user, blocked: true });
    // The contact is what the gateway knows: the name the user's messages carried, no profile fetched.
    const contact = await world.api.get(`${base}/contacts/${user}`, { key: key() });
    expect(contact.body.data).toMatchObject({ phone: user, pushName: `Customer ${user}`, picture: null, blocked: true });
    // Without profiles on the network, a number the instance never met is no contact.
    const stranger = await world.api.get(`${base}/contacts/${newUser()}`, { key: key() });
    expect(stranger.status, stranger.text).toBe(400);
    expect(stranger.body.error.message).toMatch(/^phone: /);
    expect(asked()).toBe(before);

    const history = await world.api.post(`${base}/chats/${user}/history`, { key: key(), body: { count: 10 } });
    expect(history.status, history.text).toBe(422);
    expect(history.body.error.code).toBe('not_supported');
    expect(asked()).toBe(before);
  });
});
