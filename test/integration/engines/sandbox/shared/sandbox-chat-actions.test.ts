// What an instance's chat actions tell its sandbox phone (docs/engines.md, "The sandbox's past"): chat
// states and blocks on the phone's own side, read receipts on the writer's, older messages of the
// phone's past on request, and profiles made up from the number; all read back through /sandbox.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone } from '../../../../factories/sandbox.js';
import { MODES } from '../../../../kit/modes.js';
import { sandboxWorld } from '../../../../kit/worlds/sandbox.js';

const DAY_MS = 86_400_000;
const ago = (days: number, minutes = 0) => new Date(Date.now() - days * DAY_MS + minutes * 60_000).toISOString();
/** Whether the sandbox shows a picture for a number (its rule, docs/engines.md). */
const pictured = (digits: string) => createHash('sha256').update(`sandbox-profile:${digits}`).digest()[1]! % 4 !== 0;
function numberWhere(wanted: boolean) {
  for (;;) {
    const digits = newPhone().slice(1);
    if (pictured(digits) === wanted) return digits;
  }
}

describe.each(MODES)("Sandbox: chat actions reach the phone's side — $name", (mode) => {
  const world = sandboxWorld(mode);
  const key = () => world.tenant.liveKey;
  const peer = numberWhere(true);
  const plain = numberWhere(false);
  let instance: { id: string; phone: string };
  const own = () => instance.phone.slice(1);
  const base = () => `/v1/chat/instances/${instance.id}`;
  const messagesOf = async (chat: string) => ((await world.api.get(`${base()}/chats/${chat}/messages?limit=100`, { key: key() })).body.data ?? []) as Array<{ id: string; text: string | null; history: boolean; direction: string }>;

  beforeAll(async () => {
    const phone = newPhone();
    // The past: a chat with `peer` reaching back 60 days (older than the 30 an instance takes by default), and one with `plain`.
    const given = await world.api.post(`/sandbox/phones/${phone.slice(1)}/past`, {
      body: {
        contacts: [{ phone: peer, name: 'Peer Saved', pushName: 'Peer' }],
        messages: [
          { id: 'old1', chat: peer, at: ago(60), text: 'from two months ago' },
          { id: 'old2', chat: peer, fromMe: true, at: ago(59), text: 'answered two months ago' },
          { id: 'old3', chat: peer, at: ago(45), text: 'six weeks ago' },
          { id: 'new1', chat: peer, at: ago(10), text: 'ten days ago' },
          { id: 'new2', chat: peer, fromMe: true, at: ago(9), text: 'nine days ago' },
          { id: 'other', chat: plain, at: ago(2), text: 'hello', pushName: 'Plain' },
        ],
      },
    });
    expect(given.status, given.text).toBe(200);
    instance = await connectedV1Instance(world.api, key(), `chat actions ${Date.now()}`, phone);
    await eventually(() => messagesOf(peer), (list) => list.length === 2, 15_000);
  }, 60_000);

  it('archive, pin, mute and mark unread are recorded on the phone, in order, with the chat the gateway answers', async () => {
    const act = async (action: string, body?: object) => {
      const answer = await world.api.post(`${base()}/chats/${peer}/${action}`, { key: key(), ...(body ? { body } : {}) });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data;
    };
    expect(await act('archive')).toMatchObject({ id: peer, archived: true });
    expect(await act('pin')).toMatchObject({ pinned: true });
    expect(await act('mute', { until: 'forever' })).toMatchObject({ mutedUntil: 'forever' });
    const until = new Date(Date.now() + DAY_MS).toISOString();
    await act('mute', { until });
    await act('unread');
    await act('unarchive');
    const seen = await world.api.get(`/sandbox/phones/${own()}/chat-states`);
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((s: { chat: string; change: object }) => [s.chat, s.change])).toEqual([
      [peer, { archived: true }],
      [peer, { pinned: true }],
      [peer, { mutedUntil: 'forever' }],
      [peer, { mutedUntil: until }],
      [peer, { unread: true }],
      [peer, { archived: false }],
    ]);
    // Another phone saw none of it.
    expect((await world.api.get(`/sandbox/phones/${peer}/chat-states`)).body.data).toEqual([]);
    expect((await world.api.get('/sandbox/phones/not-a-number/chat-states')).status).toBe(400);
  });

  it("reading a chat sends read receipts of its unread messages, which the writer's phone records", async () => {
    const sent = await world.api.post('/sandbox/messages', { body: { from: peer, to: own(), text: 'are you there?', pushName: 'Peer' } });
    expect(sent.status, sent.text).toBe(200);
    const messageId = sent.body.data.messageId as string;
    await eventually(() => world.api.get(`${base()}/chats/${peer}`, { key: key() }), (r) => r.body.data?.unreadCount >= 1);
    const read = await world.api.post(`${base()}/chats/${peer}/read`, { key: key() });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.unreadCount).toBe(0);
    const reads = await eventually(() => world.api.get(`/sandbox/phones/${peer}/reads`), (r) => r.body.data.some((m: { messageId: string }) => m.messageId === messageId));
    expect(reads.body.data.find((m: { messageId: string }) => m.messageId === messageId)).toEqual({ messageId, from: own(), at: expect.any(String) });
  });

  it('blocks and unblocks are recorded on the phone; the contact answers blocked', async () => {
    const blocked = await world.api.post(`${base()}/contacts/${plain}/block`, { key: key() });
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.body.data).toMatchObject({ phone: plain, blocked: true });
    const unblocked = await world.api.post(`${base()}/contacts/${plain}/unblock`, { key: key() });
    expect(unblocked.body.data).toMatchObject({ phone: plain, blocked: false });
    const seen = await world.api.get(`/sandbox/phones/${own()}/blocks`);
    expect(seen.body.data.map((b: { phone: string; blocked: boolean }) => [b.phone, b.blocked])).toEqual([
      [plain, true],
      [plain, false],
    ]);
    expect((await world.api.post(`${base()}/contacts/abc/block`, { key: key() })).status).toBe(400);
  });

  it("a contact's profile is made up from the number and the same every time; its picture is served by the control API", async () => {
    const first = await world.api.get(`${base()}/contacts/${peer}`, { key: key() });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ phone: peer, name: 'Peer Saved', onNetwork: true, picture: { url: `/sandbox/phones/${peer}/picture`, expiresAt: expect.any(String) } });
    const picture = await world.api.get(first.body.data.picture.url);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toContain('image/svg+xml');
    expect(picture.text).toContain(peer.slice(-2));

    const again = await world.api.get(`${base()}/contacts/${plain}`, { key: key() });
    expect(again.body.data).toMatchObject({ phone: plain, onNetwork: true, picture: null });
    expect((await world.api.get(`/sandbox/phones/${plain}/picture`)).status).toBe(404);
    // A number the network never saw has no profile at all.
    const stranger = newPhone().slice(1);
    const unknown = await world.api.get(`${base()}/contacts/${stranger}`, { key: key() });
    expect(unknown.status, unknown.text).toBe(200);
    expect(unknown.body.data).toMatchObject({ onNetwork: false, about: null, business: false, picture: null });
  });

  it("asking for older messages brings the phone's older past of that chat, as history", async () => {
    const asked = await world.api.post(`${base()}/chats/${peer}/history`, { key: key(), body: { count: 2 } });
    expect(asked.status, asked.text).toBe(202);
    const list = await eventually(() => messagesOf(peer), (l) => l.some((m) => m.text === 'six weeks ago') && l.some((m) => m.text === 'answered two months ago'), 15_000);
    expect(list.filter((m) => m.history).map((m) => m.text)).toEqual(['nine days ago', 'ten days ago', 'six weeks ago', 'answered two months ago']);
    const rest = await world.api.post(`${base()}/chats/${peer}/history`, { key: key(), body: { count: 50 } });
    expect(rest.status).toBe(202);
    await eventually(() => messagesOf(peer), (l) => l.some((m) => m.text === 'from two months ago'), 15_000);
    expect((await world.api.post(`${base()}/chats/${peer}/history`, { key: key(), body: { count: 0 } })).status).toBe(400);
  });
});
