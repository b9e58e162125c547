import { beforeAll, describe, expect, it } from 'vitest';
import { newPhone } from '../../../factories/sandbox.js';
import { allPages, digitsOf } from '../../../factories/conversations.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

/** An instance's contacts over REST (docs/conversations.md "REST"): blocking, one contact, the paged list and its search. */
describe.each(MODES)('Contacts over REST on the sandbox — $name', (mode) => {
  const world = sandboxWorld(mode, { tenants: ['enterprise', 'enterprise'] });
  let a: { id: string; phone: string };

  const key = () => ({ key: world.tenant.liveKey });
  const contacts = (rest = '') => `/v1/chat/instances/${a.id}/contacts${rest}`;
  const refusedField = async (answer: { status: number; body: any; text: string }, field: string) => {
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.message).toMatch(new RegExp(`(^|; )${field}: `));
  };

  beforeAll(async () => {
    a = await connectedInstance(world, `contacts-${Date.now()}`);
  }, 60_000);

  it('blocks and unblocks a phone, written with or without +, and shows the contact the same everywhere', async () => {
    const phone = newPhone();
    const blocked = await world.api.post(contacts(`/${encodeURIComponent(phone)}/block`), key());
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.body).toEqual({
      success: true,
      data: { phone: digitsOf(phone), lid: null, name: null, pushName: null, onNetwork: expect.toBeOneOf([true, false, null]), business: false, about: null, blocked: true, picture: null },
    });
    // Reading it fetches its profile from the sandbox network, which has no account for that number.
    const one = await world.api.get(contacts(`/${digitsOf(phone)}`), key());
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toEqual({ ...blocked.body.data, onNetwork: false });
    const bySession = await world.api.get(`/chat/instances/${a.id}/contacts/${digitsOf(phone)}`, { cookie: world.tenant.cookie });
    expect(bySession.body.data).toEqual(one.body.data);

    const unblocked = await world.api.post(`/chat/instances/${a.id}/contacts/${digitsOf(phone)}/unblock`, { cookie: world.tenant.cookie });
    expect(unblocked.status, unblocked.text).toBe(200);
    expect(unblocked.body.data).toEqual({ ...one.body.data, blocked: false });
    expect((await world.api.get(contacts(`/${digitsOf(phone)}`), key())).body.data.blocked).toBe(false);
  });

  it('names a person who wrote by their push name, and pages contacts without skipping or repeating', { timeout: 60_000 }, async () => {
    const b = await connectedInstance(world, `contact-pages-${Date.now()}`);
    const writer = newPhone();
    const wrote = await world.api.post('/sandbox/messages', { body: { from: writer, to: b.phone, text: 'hi', pushName: 'Quentin Quill' } });
    expect(wrote.status, wrote.text).toBe(200);
    const phones = Array.from({ length: 11 }, () => newPhone());
    for (const phone of phones) expect((await world.api.post(`/v1/chat/instances/${b.id}/contacts/${digitsOf(phone)}/block`, key())).status).toBe(200);

    const { items, pages } = await allPages(world, `/v1/chat/instances/${b.id}/contacts?limit=4`, {
      // A contact made between pages shows on a later page or not at all, never twice.
      between: async () => void (await world.api.post(`/v1/chat/instances/${b.id}/contacts/${digitsOf(newPhone())}/block`, key())),
    });
    expect(pages).toBeGreaterThanOrEqual(3);
    const listed = items.map((contact) => contact.phone);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining([...phones.map(digitsOf), digitsOf(writer)]));

    const search = async (query: string) => (await world.api.get(`/v1/chat/instances/${b.id}/contacts?search=${encodeURIComponent(query)}`, key())).body.data.map((contact: { phone: string }) => contact.phone);
    expect(await search('quentin')).toEqual([digitsOf(writer)]);
    expect(await search(digitsOf(phones[3]!).slice(-8))).toEqual([digitsOf(phones[3]!)]);
    expect(await search('nobody by that name')).toEqual([]);
    const named = await world.api.get(`/v1/chat/instances/${b.id}/contacts/${digitsOf(writer)}`, key());
    expect(named.body.data).toMatchObject({ phone: digitsOf(writer), pushName: 'Quentin Quill', blocked: false });
    const chat = await world.api.get(`/v1/chat/instances/${b.id}/chats/${digitsOf(writer)}`, key());
    expect(chat.body.data.name).toBe('Quentin Quill');
  });

  it('refuses bad phones and bad queries with 400 naming the field; looks a number never met up on the network', async () => {
    for (const phone of ['abc', '123', '+0551199999', '5511-9999-0001']) {
      await refusedField(await world.api.get(contacts(`/${encodeURIComponent(phone)}`), key()), 'phone');
      await refusedField(await world.api.post(contacts(`/${encodeURIComponent(phone)}/block`), key()), 'phone');
    }
    // A number the instance never met is looked up on the network (the sandbox has profiles): known from then on.
    const met = await world.api.get(contacts(`/${digitsOf(newPhone())}`), key());
    expect(met.status, met.text).toBe(200);
    expect(met.body.data).toMatchObject({ onNetwork: false, picture: null });
    await refusedField(await world.api.get(contacts('?cursor=nonsense'), key()), 'cursor');
    const chatCursor = (await world.api.get(`/v1/chat/instances/${a.id}/chats?limit=1`, key())).body.next;
    if (chatCursor) await refusedField(await world.api.get(contacts(`?cursor=${encodeURIComponent(chatCursor)}`), key()), 'cursor');
    await refusedField(await world.api.get(contacts('?limit=0'), key()), 'limit');
    await refusedField(await world.api.get(contacts('?limit=101'), key()), 'limit');
    await refusedField(await world.api.get(contacts('?filter=all'), key()), 'filter');
    await refusedField(await world.api.get(contacts(`?search=${'x'.repeat(101)}`), key()), 'search');
  });

  it("answers for another tenant's instance as the rest of the API does", async () => {
    const theirs = await world.api.post('/v1/chat/instances', { key: world.tenants[1]!.liveKey, body: { name: `their-contacts-${Date.now()}` } });
    const id = theirs.body.data.id as string;
    const detail = await world.api.get(`/v1/chat/instances/${id}`, key());
    expect(detail.status).toBe(403);
    for (const answer of [
      await world.api.get(`/v1/chat/instances/${id}/contacts`, key()),
      await world.api.get(`/v1/chat/instances/${id}/contacts/5511999990001`, key()),
      await world.api.post(`/v1/chat/instances/${id}/contacts/5511999990001/block`, key()),
      await world.api.post(`/chat/instances/${id}/contacts/5511999990001/unblock`, { cookie: world.tenant.cookie }),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(detail.body);
    }
  });
});
