import { beforeAll, describe, expect, it } from 'vitest';
import { newPhone } from '../../../factories/sandbox.js';
import { allPages, asChatMessage, digitsOf, instanceSends, phoneWrites } from '../../../factories/conversations.js';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

/** The chats of an instance over REST (docs/conversations.md "REST"): lists, paging, filters, search and the messages of a chat. */
describe.each(MODES)('Chats over REST on the sandbox — $name', (mode) => {
  // A second tenant, whose instance the first may not read.
  const world = sandboxWorld(mode, { tenants: ['enterprise', 'enterprise'] });
  let a: { id: string; phone: string };

  const key = () => ({ key: world.tenant.liveKey });
  const chatsOf = (instanceId: string, query = '', auth: { key?: string; cookie?: string } = key()) => world.api.get(`/v1/chat/instances/${instanceId}/chats${query}`, auth);

  beforeAll(async () => {
    a = await connectedInstance(world, `chats-${Date.now()}`);
  }, 60_000);

  it("makes a chat per peer from messages either way, newest activity first, its last message as the message's own answer shows it", async () => {
    const [p1, p2, p3] = [newPhone(), newPhone(), newPhone()];
    const m1 = await phoneWrites(world, a, p1, 'first', { pushName: 'Pat One' });
    const m2 = await instanceSends(world, a, p2, 'second');
    await phoneWrites(world, a, p3, 'third');
    const m4 = await phoneWrites(world, a, p3, 'fourth');

    const list = await chatsOf(a.id);
    expect(list.status, list.text).toBe(200);
    expect(list.body.next).toBeNull();
    const mine = list.body.data.filter((chat: { id: string }) => [p1, p2, p3].map(digitsOf).includes(chat.id));
    expect(mine.map((chat: { id: string }) => chat.id)).toEqual([digitsOf(p3), digitsOf(p2), digitsOf(p1)]);
    const [c3, c2, c1] = mine;
    expect(c1).toEqual({
      id: digitsOf(p1),
      instanceId: a.id,
      kind: 'direct',
      name: 'Pat One',
      lastMessage: await asChatMessage(world, m1, digitsOf(p1)),
      unreadCount: 1,
      archived: false,
      pinned: false,
      mutedUntil: null,
      updatedAt: expect.any(String),
    });
    expect(c2).toMatchObject({ name: digitsOf(p2), unreadCount: 0, lastMessage: await asChatMessage(world, m2, digitsOf(p2)) });
    expect(c3).toMatchObject({ name: digitsOf(p3), unreadCount: 2, lastMessage: await asChatMessage(world, m4, digitsOf(p3)) });

    // One chat, by its digits or written with a +, and the session variant with the cookie: the same chat.
    for (const [path, auth] of [
      [`/v1/chat/instances/${a.id}/chats/${digitsOf(p1)}`, key()],
      [`/v1/chat/instances/${a.id}/chats/${encodeURIComponent(p1)}`, key()],
      [`/chat/instances/${a.id}/chats/${digitsOf(p1)}`, { cookie: world.tenant.cookie }],
    ] as const) {
      const one = await world.api.get(path, auth);
      expect(one.status, one.text).toBe(200);
      expect(one.body).toEqual({ success: true, data: c1 });
    }
    const bySession = await world.api.get(`/chat/instances/${a.id}/chats`, { cookie: world.tenant.cookie });
    expect(bySession.body.data).toEqual(list.body.data);
  });

  it('pages chats with a cursor that neither skips nor repeats while messages arrive', { timeout: 60_000 }, async () => {
    const b = await connectedInstance(world, `paging-${Date.now()}`);
    const peers = Array.from({ length: 23 }, () => newPhone());
    for (const [i, peer] of peers.entries()) await phoneWrites(world, b, peer, `hello ${i}`);
    const newcomers: string[] = [];
    const { items, pages } = await allPages(world, `/v1/chat/instances/${b.id}/chats?limit=5`, {
      // Between pages a new peer writes (a new chat on top) and a chat already listed moves to the top.
      between: async (page) => {
        const newcomer = newPhone();
        newcomers.push(newcomer);
        await phoneWrites(world, b, newcomer, `new ${page}`);
        await phoneWrites(world, b, peers[peers.length - page]!, `again ${page}`);
      },
    });
    expect(pages).toBe(5);
    expect(items.map((chat) => chat.id)).toEqual(peers.map(digitsOf).reverse());

    const everything = await chatsOf(b.id, '?limit=100');
    expect(everything.body.data).toHaveLength(peers.length + newcomers.length);
    expect(everything.body.data[0].id).toBe(digitsOf(peers[peers.length - pages]!));
    expect(new Set(everything.body.data.map((chat: { id: string }) => chat.id)).size).toBe(peers.length + newcomers.length);
    const defaults = await chatsOf(b.id);
    expect(defaults.body.data).toHaveLength(20);
    expect(defaults.body.next).toEqual(expect.any(String));
  });

  it("pages a chat's messages newest first with `before`, each as the message's own answer shows it, new arrivals not repeated", async () => {
    const peer = newPhone();
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push(i % 3 === 2 ? await instanceSends(world, a, peer, `out ${i}`) : await phoneWrites(world, a, peer, `in ${i}`));
    const chatId = digitsOf(peer);
    const { items, pages } = await allPages(world, `/v1/chat/instances/${a.id}/chats/${chatId}/messages?limit=4`, {
      cursorParam: 'before',
      between: async () => void (await phoneWrites(world, a, peer, 'meanwhile')),
    });
    expect(pages).toBe(3);
    expect(items.map((message) => message.id)).toEqual([...ids].reverse());
    for (const [i, id] of [...ids].reverse().entries()) expect(items[i]).toEqual(await asChatMessage(world, id, chatId));

    const all = await world.api.get(`/chat/instances/${a.id}/chats/${chatId}/messages`, { cookie: world.tenant.cookie });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data).toHaveLength(12);
    expect(all.body.next).toBeNull();
    expect(all.body.data.slice(3).map((message: { id: string }) => message.id)).toEqual([...ids].reverse());
  });

  it('filters unread, archived, groups and direct chats, and searches names and digits', { timeout: 60_000 }, async () => {
    const c = await connectedInstance(world, `filters-${Date.now()}`);
    const [reader, writer, archived, member] = [newPhone(), newPhone(), newPhone(), newPhone()];
    await instanceSends(world, c, reader, 'you have nothing unread from me');
    await phoneWrites(world, c, writer, 'unread one', { pushName: 'Winifred Writer' });
    await phoneWrites(world, c, archived, 'to be archived');
    expect((await world.api.post(`/v1/chat/instances/${c.id}/chats/${digitsOf(archived)}/read`, key())).status).toBe(200);
    const group = await world.api.post(`/v1/chat/instances/${c.id}/groups`, { ...key(), body: { subject: 'Filter Club', participants: [digitsOf(member)] } });
    expect(group.status, group.text).toBe(201);
    const groupId = group.body.data.id as string;
    await phoneWrites(world, c, member, 'in the group', { group: groupId });
    expect((await world.api.post(`/v1/chat/instances/${c.id}/chats/${digitsOf(archived)}/archive`, key())).status).toBe(200);

    const ids = async (query: string) => {
      const answer = await chatsOf(c.id, query);
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data.map((chat: { id: string }) => chat.id).sort();
    };
    expect(await ids('?filter=archived')).toEqual([digitsOf(archived)]);
    expect(await ids('?filter=groups')).toEqual([groupId]);
    expect(await ids('?filter=unread')).toEqual([digitsOf(writer), groupId].sort());
    expect(await ids('?filter=direct')).not.toContain(groupId);
    expect(await ids('?filter=direct')).toEqual(expect.arrayContaining([digitsOf(reader), digitsOf(writer)]));
    const groupChat = (await world.api.get(`/v1/chat/instances/${c.id}/chats/${encodeURIComponent(groupId)}`, key())).body.data;
    expect(groupChat).toMatchObject({ id: groupId, kind: 'group', name: 'Filter Club', unreadCount: 1 });

    expect(await ids('?search=winifred')).toEqual([digitsOf(writer)]);
    expect(await ids('?search=filter%20club')).toEqual([groupId]);
    expect(await ids(`?search=${digitsOf(reader).slice(-8)}`)).toEqual([digitsOf(reader)]);
    expect(await ids('?search=nobody-by-this-name')).toEqual([]);
    expect(await ids('?filter=unread&search=club')).toEqual([groupId]);
  });

  it('refuses bad queries and chat ids with 400 naming the field, and unknown instances as the rest of the API does', async () => {
    const base = `/v1/chat/instances/${a.id}/chats`;
    const refused = async (path: string, field: string, auth: { key?: string; cookie?: string } = key()) => {
      const answer = await world.api.get(path, auth);
      expect(answer.status, `${path}: ${answer.text}`).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
      expect(answer.body.error.message, path).toMatch(new RegExp(`(^|; )${field}: `));
    };
    const known = digitsOf((await chatsOf(a.id, '?limit=1')).body.data[0].id);
    const messageCursor = (await world.api.get(`${base}/${known}/messages?limit=1`, key())).body.next as string;
    expect(messageCursor).toEqual(expect.any(String));
    await refused(`${base}?cursor=not-a-cursor`, 'cursor');
    await refused(`${base}?cursor=${encodeURIComponent(messageCursor)}`, 'cursor');
    await refused(`${base}?limit=0`, 'limit');
    await refused(`${base}?limit=101`, 'limit');
    await refused(`${base}?limit=1001`, 'limit');
    await refused(`${base}?limit=ten`, 'limit');
    await refused(`${base}?filter=starred`, 'filter');
    await refused(`${base}?colour=red`, 'colour');
    await refused(`${base}?limit=5&page=2`, 'page');
    await refused(`/chat/instances/${a.id}/chats?sort=name`, 'sort', { cookie: world.tenant.cookie });
    await refused(`${base}/${known}/messages?cursor=x`, 'cursor');
    await refused(`${base}/${known}/messages?before=garbage`, 'before');
    await refused(`${base}/${known}/messages?limit=0`, 'limit');
    for (const malformed of ['abc', '12', 'x@g.us', '5511@s.whatsapp.net']) {
      await refused(`${base}/${encodeURIComponent(malformed)}`, 'chatId');
      await refused(`${base}/${encodeURIComponent(malformed)}/messages`, 'chatId');
    }
    const stranger = digitsOf(newPhone());
    await refused(`${base}/${stranger}`, 'chatId');
    await refused(`${base}/${stranger}/messages`, 'chatId');
    const action = await world.api.post(`${base}/${stranger}/pin`, key());
    expect(action.status).toBe(400);
    expect(action.body.error.message).toMatch(/^chatId: /);

    const missing = await chatsOf('00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(failure('not_found'));
    expect((await world.api.get(base)).status).toBe(401);
    expect((await world.api.get(`/chat/instances/${a.id}/chats`, key())).status).toBe(401);
  });

  it("refuses another tenant's instance as the rest of the API does, and lets nothing of it show", async () => {
    const theirs = await world.api.post('/v1/chat/instances', { key: world.tenants[1]!.liveKey, body: { name: `theirs-${Date.now()}` } });
    expect(theirs.status, theirs.text).toBe(201);
    const id = theirs.body.data.id as string;
    const detail = await world.api.get(`/v1/chat/instances/${id}`, key());
    for (const answer of [
      await chatsOf(id),
      await world.api.get(`/v1/chat/instances/${id}/chats/5511999990001`, key()),
      await world.api.get(`/v1/chat/instances/${id}/chats/5511999990001/messages`, key()),
      await world.api.post(`/v1/chat/instances/${id}/chats/5511999990001/read`, key()),
      await world.api.delete(`/v1/chat/instances/${id}/chats/5511999990001`, key()),
      await world.api.get(`/chat/instances/${id}/chats`, { cookie: world.tenant.cookie }),
    ]) {
      expect(answer.status).toBe(detail.status);
      expect(answer.body).toEqual(detail.body);
    }
    expect(detail.status).toBe(403);
  });
});
