import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { client } from '../../../helpers/http.js';
import { startTestGateway } from '../../../kit/gateway.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { PNG_1PX } from '../../../kit/files.js';
import { decodeQr } from '../../../../src/infra/qr-decode.js';
import type { PhonePast } from '../../../networks/chat-network/index.js';

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const HISTORY_EVENTS = ['messages.upsert', 'history.sync', 'chats.upsert'];

describe.each(MODES)('CHAT-BAILEYS: history sync, conversations and the phone — $name', (mode) => {
  // The engine state's key, the same for the gateway started again on the same data.
  const stateKey = { ENGINE_STATE_KEY: randomBytes(32).toString('base64') };
  const world = baileysWorld(mode, { env: stateKey });

  const v1 = (instanceId: string) => `/v1/chat/instances/${instanceId}`;
  const key = () => ({ key: world.tenant.liveKey });
  const dataOf = (instanceId: string, event: string) =>
    world.receiver.of(event).flatMap((call) => {
      const body = JSON.parse(call.body);
      return body.instance?.instanceId === instanceId ? [body.data] : [];
    });
  const chatsOf = async (instanceId: string): Promise<Array<{ id: string }>> => (await world.api.get(`${v1(instanceId)}/chats?limit=100`, key())).body.data;
  /** A chat's messages, newest first; none for a chat the instance does not have yet. */
  const messagesOf = async (instanceId: string, chatId: string): Promise<Array<Record<string, unknown>>> =>
    (await world.api.get(`${v1(instanceId)}/chats/${chatId}/messages?limit=100`, key())).body.data ?? [];
  const chatOf = async (instanceId: string, chatId: string) => (await world.api.get(`${v1(instanceId)}/chats/${chatId}`, key())).body.data;
  // Chunks may be read out of order (the last one before another): done is waited for with every batch in.
  const historyDone = (instanceId: string, batches = 1) =>
    eventually(async () => dataOf(instanceId, 'history.sync'), (list) => list.some((data) => data.done && data.batches >= batches), 30_000);

  /** A session instance subscribed to the history events, its `historySync` set, linked to a new phone that has `past`. */
  async function linked(past: PhonePast | null, historySync: unknown = null) {
    const phone = newNetworkPhone();
    if (past) world.network.setHistory(phone, past);
    const { api, tenant, receiver } = world;
    const created = await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: `history ${Date.now()}`, ...(historySync ? { historySync } : {}) } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.instanceId as string;
    const hooked = await api.post(`/v1/chat/instances/${id}/webhook`, { key: tenant.liveKey, body: { url: `${receiver.url}/${id}`, events: HISTORY_EVENTS } });
    expect(hooked.status, hooked.text).toBe(200);
    const detail = await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => Boolean(r.body.data?.qrCode), 15_000);
    await world.network.scan(decodeQr(detail.body.data.qrCode.base64), phone);
    await eventually(() => api.get(`/chat/instances/${id}`, { cookie: tenant.cookie }), (r) => r.body.data.status === 'connected', 20_000);
    return { id, phone: phone.slice(1) };
  }

  /** A message a phone sends the instance now, stored: everything the instance got before it was reported. */
  async function sentinel(instanceId: string, instancePhone: string) {
    const from = newNetworkPhone().slice(1);
    const id = await world.network.send(from, instancePhone, { text: 'now' });
    await eventually(() => messagesOf(instanceId, from), (list) => list.some((message) => message.networkMessageId === id), 20_000);
  }

  it('history in chunks lands as history: both directions, groups and names, no messages.upsert, history.sync up to done; a LID chat moves under the number told later', async () => {
    const friend = newNetworkPhone().slice(1);
    const author = newNetworkPhone().slice(1);
    const hidden = newNetworkPhone().slice(1);
    world.network.setProfile(friend, { pushName: 'Friend' });
    const group = world.network.groupCreate(author, 'Past team', [friend]);
    const instance = await linked(
      {
        chatsPerChunk: 1,
        chats: [
          {
            with: friend,
            unreadCount: 1,
            messages: [
              { id: 'HF1', text: 'hi there', at: ago(3 * DAY) },
              { id: 'HF2', text: 'hello back', at: ago(2 * DAY), fromMe: true, status: 'read' },
            ],
          },
          { with: group, name: 'Past team', archived: true, messages: [{ id: 'HG1', text: 'team news', at: ago(DAY), author }] },
          { with: hidden, lidOnly: true, messages: [{ id: 'HH1', text: 'who am I', at: ago(4 * DAY) }] },
        ],
      },
    );
    const syncs = await historyDone(instance.id, 3);
    expect(syncs.at(-1)).toEqual({ batches: 3, messages: 4, chats: 3, progress: 100, done: true });
    expect(syncs.map((data) => data.batches)).toEqual([1, 2, 3]);
    expect(Math.min(...syncs.map((data) => data.progress))).toBeGreaterThanOrEqual(33);
    expect(dataOf(instance.id, 'messages.upsert')).toEqual([]);
    expect(dataOf(instance.id, 'chats.upsert')).toHaveLength(3);

    const lidChat = `${world.network.lidOf(hidden)}@lid`;
    expect((await chatsOf(instance.id)).map((chat) => chat.id).sort()).toEqual([friend, group, lidChat].sort());
    const direct = await messagesOf(instance.id, friend);
    expect(direct.map((message) => [message.networkMessageId, message.direction, message.history, message.text, message.from])).toEqual([
      ['HF2', 'out', true, 'hello back', instance.phone],
      ['HF1', 'in', true, 'hi there', friend],
    ]);
    expect(direct.map((message) => [message.status, message.chatId])).toEqual([['read', friend], ['delivered', friend]]);
    const [teamNews] = await messagesOf(instance.id, group);
    expect(teamNews).toMatchObject({ networkMessageId: 'HG1', direction: 'in', history: true, from: author, text: 'team news' });
    expect(await chatOf(instance.id, group)).toMatchObject({ kind: 'group', name: 'Past team', archived: true, lastMessage: { networkMessageId: 'HG1', history: true } });
    expect(await chatOf(instance.id, friend)).toMatchObject({ kind: 'direct', name: 'Friend', unreadCount: 1 });
    expect((await messagesOf(instance.id, lidChat)).map((message) => message.networkMessageId)).toEqual(['HH1']);

    // The phone tells its device the hidden person's number: the chat and its message move under it.
    await world.network.shareLidMapping(`+${instance.phone}`, [hidden]);
    await eventually(() => chatsOf(instance.id), (chats) => chats.some((chat) => chat.id === hidden) && !chats.some((chat) => chat.id === lidChat), 20_000);
    expect((await messagesOf(instance.id, hidden)).map((message) => [message.networkMessageId, message.from])).toEqual([['HH1', hidden]]);
  });

  it('a LID chat from history moves under the number when the person writes with it beside the LID', async () => {
    const hidden = newNetworkPhone().slice(1);
    const instance = await linked({ chats: [{ with: hidden, lidOnly: true, messages: [{ id: 'LM1', text: 'before', at: ago(DAY) }] }] });
    await historyDone(instance.id);
    const lidChat = `${world.network.lidOf(hidden)}@lid`;
    expect((await chatsOf(instance.id)).map((chat) => chat.id)).toEqual([lidChat]);
    const now = await world.network.send(hidden, `+${instance.phone}`, { text: 'after' }, { addressing: 'lid' });
    const moved = await eventually(() => messagesOf(instance.id, hidden), (list) => list.length === 2, 20_000);
    expect(moved.map((message) => [message.networkMessageId, message.history, message.from])).toEqual([
      [now, false, hidden],
      ['LM1', true, hidden],
    ]);
    expect((await chatsOf(instance.id)).map((chat) => chat.id)).toEqual([hidden]);
  });

  it('every kind of message comes through history as it comes live: a picture with its caption, a place', async () => {
    const friend = newNetworkPhone().slice(1);
    const instance = await linked({
      chats: [
        {
          with: friend,
          messages: [
            { id: 'KP1', content: { image: { bytes: PNG_1PX, mimetype: 'image/png', caption: 'the view' } }, at: ago(DAY) },
            { id: 'KL1', content: { location: { latitude: 52.52, longitude: 13.4, name: 'Here' } }, at: ago(DAY / 2), fromMe: true },
          ],
        },
      ],
    });
    await historyDone(instance.id);
    const [place, picture] = await messagesOf(instance.id, friend);
    expect(picture).toMatchObject({ networkMessageId: 'KP1', type: 'image', history: true, direction: 'in', media: expect.objectContaining({ mimetype: 'image/png' }) });
    expect(picture!.media).toMatchObject({ type: 'image', caption: 'the view', url: expect.stringMatching(new RegExp(`^/media/${picture!.id}\\?expires=\\d+&signature=[\\w-]+$`)) });
    // The file is fetched from the network's media host as a live message's would be.
    const file = await fetch(`${world.gw.url}/v1/messages/${picture!.id}/media`, { headers: { authorization: `Bearer ${world.tenant.liveKey}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG_1PX);
    expect(place).toMatchObject({ networkMessageId: 'KL1', type: 'location', history: true, direction: 'out' });
    expect(JSON.stringify(place)).toContain('52.52');
  });

  it('a chunk handed over twice stores nothing twice and tells nothing twice', async () => {
    const friend = newNetworkPhone().slice(1);
    const instance = await linked({ chats: [{ with: friend, messages: [{ text: 'once', at: ago(DAY) }, { text: 'only once', at: ago(DAY / 2), fromMe: true }] }] });
    await historyDone(instance.id);
    const told = dataOf(instance.id, 'history.sync').length;
    expect(await world.network.historyAgain(`+${instance.phone}`)).toBe(2);
    await sentinel(instance.id, `+${instance.phone}`);
    expect((await messagesOf(instance.id, friend)).map((message) => message.text)).toEqual(['only once', 'once']);
    expect(dataOf(instance.id, 'history.sync')).toHaveLength(told);
  });

  it('historySync none takes nothing of the past; recent takes only the days it names', async () => {
    const friend = newNetworkPhone().slice(1);
    const older = newNetworkPhone().slice(1);
    const past = (): PhonePast => ({
      chats: [
        { with: friend, messages: [{ id: `R1${Date.now()}`, text: 'yesterday', at: ago(DAY) }, { id: `R5${Date.now()}`, text: 'five days ago', at: ago(5 * DAY) }] },
        { with: older, messages: [{ text: 'a week ago', at: ago(7 * DAY) }] },
      ],
    });
    const none = await linked(past(), { mode: 'none' });
    await sentinel(none.id, `+${none.phone}`);
    expect((await chatsOf(none.id)).map((chat) => chat.id)).not.toContain(friend);
    expect(dataOf(none.id, 'history.sync')).toEqual([]);

    const recent = await linked(past(), { mode: 'recent', days: 2 });
    await historyDone(recent.id);
    expect((await messagesOf(recent.id, friend)).map((message) => message.text)).toEqual(['yesterday']);
    expect((await chatsOf(recent.id)).map((chat) => chat.id)).not.toContain(older);

    const full = await linked(past(), { mode: 'full' });
    await historyDone(full.id);
    expect((await messagesOf(full.id, friend)).map((message) => message.text)).toEqual(['yesterday', 'five days ago']);
    expect((await messagesOf(full.id, older)).map((message) => message.text)).toEqual(['a week ago']);
  });

  it('a backfill asks the phone for messages older than the oldest stored; they arrive as history', async () => {
    const friend = newNetworkPhone().slice(1);
    const messages = Array.from({ length: 5 }, (_, index) => ({ id: `B${index}${Date.now()}`, text: `message ${index}`, at: ago((10 - index) * 60_000) }));
    const instance = await linked({ messagesPerChat: 2, chats: [{ with: friend, messages }] });
    await historyDone(instance.id);
    expect((await messagesOf(instance.id, friend)).map((message) => message.text)).toEqual(['message 4', 'message 3']);
    for (const count of [0, 501, 'two']) {
      const refused = await world.api.post(`${v1(instance.id)}/chats/${friend}/history`, { ...key(), body: { count } });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).toContain('count');
    }
    const asked = await world.api.post(`${v1(instance.id)}/chats/${friend}/history`, { ...key(), body: { count: 2 } });
    expect(asked.status, asked.text).toBe(202);
    await world.network.waitFor(() => world.network.historyRequests(`+${instance.phone}`).length === 1);
    expect(world.network.historyRequests(`+${instance.phone}`)[0]).toMatchObject({ chat: `${friend}@s.whatsapp.net`, oldestMessageId: messages[3]!.id, count: 2 });
    const all = await eventually(() => messagesOf(instance.id, friend), (list) => list.length === 4, 20_000);
    expect(all.map((message) => [message.text, message.history])).toEqual([
      ['message 4', true],
      ['message 3', true],
      ['message 2', true],
      ['message 1', true],
    ]);
  });

  it('marking a chat read sends the phone read receipts for its messages; block and profile reach the network', async () => {
    const instance = await linked(null);
    const friend = newNetworkPhone().slice(1);
    const ids = [await world.network.send(friend, `+${instance.phone}`, { text: 'one' }), await world.network.send(friend, `+${instance.phone}`, { text: 'two' })];
    await eventually(() => messagesOf(instance.id, friend), (list) => list.length === 2, 20_000);
    expect(await chatOf(instance.id, friend)).toMatchObject({ unreadCount: 2 });
    const read = await world.api.post(`${v1(instance.id)}/chats/${friend}/read`, key());
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.unreadCount).toBe(0);
    await world.network.waitFor(() => ids.every((id) => world.network.receipts(friend).some((receipt) => receipt.messageId === id && receipt.type === 'read')), 20_000, 'read receipts');

    const blocked = await world.api.post(`${v1(instance.id)}/contacts/${friend}/block`, key());
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.body.data).toMatchObject({ phone: friend, blocked: true });
    expect(world.network.blocked(`+${instance.phone}`)).toEqual([friend]);
    expect((await world.api.post(`${v1(instance.id)}/contacts/${friend}/unblock`, key())).body.data).toMatchObject({ blocked: false });
    expect(world.network.blocked(`+${instance.phone}`)).toEqual([]);

    world.network.setProfile(friend, { picture: PNG_1PX, to: [] });
    const contact = await world.api.get(`${v1(instance.id)}/contacts/${friend}`, key());
    expect(contact.status, contact.text).toBe(200);
    expect(contact.body.data).toMatchObject({ phone: friend, onNetwork: true, business: false, picture: { url: expect.stringMatching(/^https:\/\//) } });
  });

  it('a restart halfway through the sync resumes it: the rest arrives, nothing is stored twice', { timeout: 90_000 }, async () => {
    const friends = Array.from({ length: 3 }, () => newNetworkPhone().slice(1));
    const instance = await linked({
      chatsPerChunk: 1,
      chunksPerConnection: 2,
      chats: friends.map((friend, index) => ({ with: friend, messages: [{ text: `to ${index}`, at: ago((index + 1) * DAY), fromMe: true }, { text: `from ${index}`, at: ago((index + 1) * DAY + 60_000) }] })),
    });
    await eventually(async () => dataOf(instance.id, 'history.sync'), (list) => list.length >= 2, 20_000);
    const first = world.gw;
    await first.gateway.close();
    world.gw = await startTestGateway(mode, { env: { ...baileysEnv(world.network, mode, { WEBHOOK_ALLOW_INSECURE: 'true' }), ...stateKey }, reuse: first });
    world.api = client(world.gw.url);
    const syncs = await historyDone(instance.id, 3);
    expect(syncs.at(-1)).toMatchObject({ batches: 3, messages: 6, chats: 3, done: true });
    for (const [index, friend] of friends.entries()) {
      expect((await messagesOf(instance.id, friend)).map((message) => message.text)).toEqual([`to ${index}`, `from ${index}`]);
    }
    // Chunks handed over again after the restart told nothing new.
    expect(syncs.filter((data) => data.done)).toHaveLength(1);
  });
});

