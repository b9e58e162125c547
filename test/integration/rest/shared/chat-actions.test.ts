import { beforeAll, describe, expect, it } from 'vitest';
import { newPhone } from '../../../factories/sandbox.js';
import { allPages, digitsOf, instanceSends, phoneWrites } from '../../../factories/conversations.js';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

/** The actions on a chat over REST (docs/conversations.md "REST"): its own state, muting, forgetting it, older messages, and exact unread counts. */
describe.each(MODES)('Chat actions over REST on the sandbox — $name', (mode) => {
  const world = sandboxWorld(mode);
  let a: { id: string; phone: string };

  const key = () => ({ key: world.tenant.liveKey });
  /** The v1 path with a key, the session path (no /v1) with the cookie. */
  const chatPath = (chatId: string, rest = '', auth: { cookie?: string } = {}) => `${auth.cookie ? '' : '/v1'}/chat/instances/${a.id}/chats/${encodeURIComponent(chatId)}${rest}`;
  const act = async (chatId: string, action: string, body?: unknown, auth: { key?: string; cookie?: string } = key()) => {
    const answer = await world.api.post(chatPath(chatId, `/${action}`, auth), { ...auth, ...(body === undefined ? {} : { body }) });
    expect(answer.status, `${action}: ${answer.text}`).toBe(200);
    expect(answer.body.success).toBe(true);
    // The answer is the chat as GET shows it now.
    const now = await world.api.get(chatPath(chatId), key());
    expect(answer.body.data).toEqual(now.body.data);
    return answer.body.data;
  };
  const refusedField = async (answer: { status: number; body: any; text: string }, field: string) => {
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.message).toMatch(new RegExp(`(^|; )${field}: `));
  };

  beforeAll(async () => {
    a = await connectedInstance(world, `actions-${Date.now()}`);
  }, 60_000);

  it('reads, marks unread, archives, pins and unarchives and unpins a chat, with the key and with the cookie', async () => {
    const peer = newPhone();
    const chatId = digitsOf(peer);
    await phoneWrites(world, a, peer, 'one');
    const second = await phoneWrites(world, a, peer, 'two');
    const other = newPhone();
    await phoneWrites(world, a, other, 'newer than the pinned one');

    expect(await act(chatId, 'read')).toMatchObject({ id: chatId, unreadCount: 0 });
    const read = await world.api.get(`/v1/messages/status/${second}`, key());
    expect(read.body.data.timestamps.read).toEqual(expect.any(String));
    expect((await act(chatId, 'unread')).unreadCount).toBeGreaterThan(0);
    expect(await act(chatId, 'read', undefined, { cookie: world.tenant.cookie })).toMatchObject({ unreadCount: 0 });

    expect(await act(chatId, 'pin')).toMatchObject({ pinned: true });
    const listed = await world.api.get(`/v1/chat/instances/${a.id}/chats`, key());
    expect(listed.body.data[0].id).toBe(chatId);
    expect(await act(chatId, 'unpin', undefined, { cookie: world.tenant.cookie })).toMatchObject({ pinned: false });
    expect((await world.api.get(`/v1/chat/instances/${a.id}/chats`, key())).body.data[0].id).toBe(digitsOf(other));

    expect(await act(chatId, 'archive')).toMatchObject({ archived: true });
    const archived = await world.api.get(`/v1/chat/instances/${a.id}/chats?filter=archived`, key());
    expect(archived.body.data.map((chat: { id: string }) => chat.id)).toEqual([chatId]);
    expect(await act(chatId, 'unarchive')).toMatchObject({ archived: false });
    expect((await world.api.get(`/v1/chat/instances/${a.id}/chats?filter=archived`, key())).body.data).toEqual([]);
  });

  it('mutes for good or until a time, refuses a time past or not a time, and unmutes', async () => {
    const peer = newPhone();
    const chatId = digitsOf(peer);
    await instanceSends(world, a, peer, 'muted soon');
    expect(await act(chatId, 'mute', { until: 'forever' })).toMatchObject({ mutedUntil: 'forever' });
    const until = new Date(Date.now() + 8 * 3600_000);
    expect(await act(chatId, 'mute', { until: until.toISOString() })).toMatchObject({ mutedUntil: until.toISOString() });
    // An offset is taken and shown in UTC.
    const inTwoDays = new Date(Math.floor(Date.now() / 1000) * 1000 + 2 * 86_400_000);
    const withOffset = inTwoDays.toISOString().replace('Z', '+00:00');
    expect(await act(chatId, 'mute', { until: withOffset }, { cookie: world.tenant.cookie })).toMatchObject({ mutedUntil: inTwoDays.toISOString() });
    for (const body of [{ until: new Date(Date.now() - 60_000).toISOString() }, { until: 'tomorrow' }, { until: 42 }, {}, { until: 'forever', for: 'ever' }]) {
      await refusedField(await world.api.post(chatPath(chatId, '/mute'), { ...key(), body }), Object.keys(body).includes('for') ? 'for' : 'until');
    }
    await refusedField(await world.api.post(chatPath(chatId, '/mute'), key()), 'until');
    expect((await world.api.get(chatPath(chatId), key())).body.data.mutedUntil).toBe(inTwoDays.toISOString());
    expect(await act(chatId, 'unmute')).toMatchObject({ mutedUntil: null });
  });

  it('forgets a chat and its messages here; the chat is then unknown', async () => {
    const peer = newPhone();
    const chatId = digitsOf(peer);
    const ids = [await phoneWrites(world, a, peer, 'forget me'), await instanceSends(world, a, peer, 'and me')];
    const kept = newPhone();
    const keptId = await phoneWrites(world, a, kept, 'keep me');

    const forgotten = await world.api.delete(chatPath(chatId, '', { cookie: world.tenant.cookie }), { cookie: world.tenant.cookie });
    expect(forgotten.status, forgotten.text).toBe(200);
    expect(forgotten.body).toEqual({ success: true, message: expect.any(String) });
    for (const id of ids) expect((await world.api.get(`/v1/messages/status/${id}`, key())).status).toBe(404);
    await refusedField(await world.api.get(chatPath(chatId), key()), 'chatId');
    await refusedField(await world.api.delete(chatPath(chatId), key()), 'chatId');
    const listed = await world.api.get(`/v1/chat/instances/${a.id}/chats?limit=100`, key());
    expect(listed.body.data.map((chat: { id: string }) => chat.id)).not.toContain(chatId);
    expect((await world.api.get(`/v1/messages/status/${keptId}`, key())).status).toBe(200);

    // The peer writing again starts the chat anew, with only the new message.
    const again = await phoneWrites(world, a, peer, 'back again');
    const messages = await world.api.get(chatPath(chatId, '/messages'), key());
    expect(messages.body.data.map((message: { id: string }) => message.id)).toEqual([again]);
  });

  it('asks the phone for older messages when the engine can (202), and says not_supported when it cannot', async () => {
    const peer = newPhone();
    const chatId = digitsOf(peer);
    await phoneWrites(world, a, peer, 'the oldest we have');
    const engines = await world.api.get('/v1/integrations', key());
    const sandbox = engines.body.data.find((engine: { integration: string }) => engine.integration === 'CHAT-SANDBOX');
    const asked = await world.api.post(chatPath(chatId, '/history'), { ...key(), body: { count: 20 } });
    if (sandbox.capabilities.includes('history')) {
      expect(asked.status, asked.text).toBe(202);
      expect(asked.body).toEqual({ success: true, message: expect.any(String) });
    } else {
      expect(asked.status, asked.text).toBe(422);
      expect(asked.body).toEqual(failure('not_supported'));
    }
    for (const count of [0, 501, 2.5, 'ten']) await refusedField(await world.api.post(chatPath(chatId, '/history'), { ...key(), body: { count } }), 'count');
    await refusedField(await world.api.post(chatPath(digitsOf(newPhone()), '/history'), { ...key(), body: { count: 5 } }), 'chatId');
  });

  it('an inactive instance refuses the actions with 409 instance_inactive; its chats can still be read and forgotten', async () => {
    const idle = await connectedInstance(world, `inactive-${Date.now()}`);
    const peer = newPhone();
    await phoneWrites(world, idle, peer, 'before the pause');
    const toggled = await world.api.post(`/v1/chat/instances/${idle.id}/toggle`, key());
    expect(toggled.body.data.active).toBe(false);
    const path = (rest = '') => `/v1/chat/instances/${idle.id}/chats/${digitsOf(peer)}${rest}`;
    for (const action of ['read', 'unread', 'archive', 'pin', 'unmute']) {
      const refused = await world.api.post(path(`/${action}`), key());
      expect(refused.status, `${action}: ${refused.text}`).toBe(409);
      expect(refused.body).toEqual(failure('instance_inactive'));
    }
    expect((await world.api.post(path('/mute'), { ...key(), body: { until: 'forever' } })).status).toBe(409);
    expect((await world.api.post(`/v1/chat/instances/${idle.id}/contacts/${digitsOf(peer)}/block`, key())).status).toBe(409);
    const chat = await world.api.get(path(), key());
    expect(chat.body.data).toMatchObject({ unreadCount: 1, archived: false, pinned: false });
    expect((await world.api.get(path('/messages'), key())).body.data).toHaveLength(1);
    expect((await world.api.delete(path(), key())).status).toBe(200);
  });

  it('keeps the unread count exact when 50 messages race a mark-read: what the read did not cover stays unread', { timeout: 60_000 }, async () => {
    const peer = newPhone();
    const chatId = digitsOf(peer);
    await phoneWrites(world, a, peer, 'before the race');
    // Five waves of ten at once; the read races the third wave: the first two are before it, the last two after.
    let read: Promise<{ status: number; body: any; text: string }> | undefined;
    for (let wave = 0; wave < 5; wave++) {
      const writes = Array.from({ length: 10 }, (_, i) => phoneWrites(world, a, peer, `race ${wave}.${i}`));
      if (wave === 2) read = world.api.post(chatPath(chatId, '/read'), key());
      await Promise.all([...writes, ...(wave === 2 ? [read] : [])]);
    }
    const readAnswer = await read!;
    expect(readAnswer.status, readAnswer.text).toBe(200);
    expect(readAnswer.body.data.unreadCount).toBe(0);

    const { items } = await allPages(world, chatPath(chatId, '/messages?limit=100'), { cursorParam: 'before' });
    expect(items).toHaveLength(51);
    const covered = items.filter((message) => message.timestamps.read !== null);
    const uncovered = items.filter((message) => message.timestamps.read === null);
    expect(covered.length).toBeGreaterThanOrEqual(21);
    expect(uncovered.length).toBeGreaterThanOrEqual(20);
    expect(covered.every((message) => message.status === 'read')).toBe(true);
    const chat = (await world.api.get(chatPath(chatId), key())).body.data;
    expect(chat.unreadCount).toBe(uncovered.length);

    expect((await act(chatId, 'read')).unreadCount).toBe(0);
    const after = await allPages(world, chatPath(chatId, '/messages?limit=100'), { cursorParam: 'before' });
    expect(after.items.every((message) => message.timestamps.read !== null)).toBe(true);
  });
});
