import { beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../factories/tenants.js';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { failure, type HttpResponse } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../kit/worlds/sandbox.js';

const digitsOf = (phone: string) => phone.slice(1);
/** A group id of the right shape: the inactive check comes before the network is asked about it. */
const GROUP = '120363000000000001@g.us';
/** A test key's daily messages here: a new key reaches it with one send and one edit. */
const TEST_KEY_DAILY = 2;
const LIMITS = '{ me { tenant { limits { messagesToday { used max } } } } }';

describe.each(MODES)('What a test key and an inactive instance may not do — $name', (mode) => {
  const world = sandboxWorld(mode, { env: { TEST_KEY_DAILY_MESSAGES: String(TEST_KEY_DAILY) } });
  let instance: { id: string; phone: string };

  /** A text sent through the instance with `key`, once the network has it. */
  async function sent(key: string, to: string, text: string) {
    const answer = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to: digitsOf(to), text } });
    expect(answer.status, answer.text).toBe(200);
    const id = answer.body.data.id as string;
    await eventually(() => world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey }), (r) => ['sent', 'delivered', 'read'].includes(r.body.data?.status));
    return id;
  }
  const onPhone = async (phone: string, id: string) => ((await phoneInbox(world.api, phone)).body.data as Array<Record<string, unknown>>).find((m) => m.id === id);
  const messagesToday = async (key: string) => (await world.api.graphql(LIMITS, {}, { key })).body.data.me.tenant.limits.messagesToday as { used: number; max: number };
  const edit = (key: string, messageId: string, text: string) => world.api.request('PATCH', `/v1/chat/instances/${instance.id}/messages/${messageId}`, { key, body: { text } });

  beforeAll(async () => {
    instance = await connectedInstance(world, `guards-${Date.now()}`);
  }, 60_000);

  describe('a test key and production messages', () => {
    it("refuses a test key's edit and delete of a production message (REST and GraphQL) with 409 test_mode_mismatch; the phone sees nothing", async () => {
      const peer = newPhone();
      const id = await sent(world.tenant.liveKey, peer, 'Your order shipped');
      const key = await createKey(world.api, world.tenant.cookie, { name: 'mismatch', testMode: true });

      const edited = await edit(key, id, 'Your order was cancelled');
      expect(edited.status, edited.text).toBe(409);
      expect(edited.body).toEqual(failure('test_mode_mismatch'));
      const deleted = await world.api.delete(`/v1/chat/instances/${instance.id}/messages/${id}`, { key });
      expect(deleted.status, deleted.text).toBe(409);
      expect(deleted.body).toEqual(failure('test_mode_mismatch'));
      const gql = (query: string, variables: Record<string, unknown>) => world.api.graphql(query, variables, { key });
      const gqlEdit = await gql('mutation ($input: EditMessageInput!) { editMessage(input: $input) { message { id } userErrors { code } } }', { input: { instanceId: instance.id, messageId: id, text: 'x' } });
      expect(gqlEdit.body.data.editMessage, gqlEdit.text).toEqual({ message: null, userErrors: [{ code: 'test_mode_mismatch' }] });
      const gqlDelete = await gql('mutation ($input: MessageActionInput!) { deleteMessage(input: $input) { done userErrors { code } } }', { input: { instanceId: instance.id, messageId: id } });
      expect(gqlDelete.body.data.deleteMessage.userErrors, gqlDelete.text).toEqual([{ code: 'test_mode_mismatch' }]);

      // An action answers once the network took it: a refusal left the phone's copy untouched.
      const entry = await onPhone(peer, id);
      expect(entry).toMatchObject({ text: 'Your order shipped' });
      expect(entry).not.toHaveProperty('edited');
      expect(entry).not.toHaveProperty('deleted');
      const record = await world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey });
      expect(record.body.data).toMatchObject({ text: 'Your order shipped', mode: 'production' });
      expect(record.body.data).not.toHaveProperty('deleted');
      // Nothing of the refused edit was counted.
      expect(await messagesToday(key)).toEqual({ used: 0, max: TEST_KEY_DAILY });
    });

    it('lets a production key edit and delete what a test key sent, the [TEST] prefix kept', async () => {
      const peer = newPhone();
      const id = await sent(world.tenant.testKey, peer, 'trying things');
      const edited = await edit(world.tenant.liveKey, id, 'trying more');
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body.data).toMatchObject({ id, text: '[TEST] trying more' });
      expect((await world.api.delete(`/v1/chat/instances/${instance.id}/messages/${id}`, { key: world.tenant.liveKey })).status).toBe(200);
      const entry = await eventually(() => onPhone(peer, id), (m) => Boolean(m?.deleted));
      expect(entry).toMatchObject({ edited: { text: '[TEST] trying more' } });
    });
  });

  describe("a test key's own messages", () => {
    it('edits keep the [TEST] prefix on the phone and count against the key\'s daily quota, which refuses the edit past it', async () => {
      const peer = newPhone();
      const key = await createKey(world.api, world.tenant.cookie, { name: 'own edits', testMode: true });
      const id = await sent(key, peer, 'first try');
      expect(await messagesToday(key)).toEqual({ used: 1, max: TEST_KEY_DAILY });

      const edited = await edit(key, id, 'second try');
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body.data).toMatchObject({ id, text: '[TEST] second try', mode: 'test' });
      expect((await onPhone(peer, id))).toMatchObject({ text: '[TEST] first try', edited: { text: '[TEST] second try' } });
      expect(await messagesToday(key)).toEqual({ used: 2, max: TEST_KEY_DAILY });

      // The quota is spent: the next edit is refused before the network, as a send would be.
      const over = await edit(key, id, 'third try');
      expect(over.status, over.text).toBe(429);
      expect(over.body.error.code).toBe('rate_limit_exceeded');
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      expect((await onPhone(peer, id))).toMatchObject({ edited: { text: '[TEST] second try' } });
      const overSend = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key, body: { to: digitsOf(peer), text: 'one more' } });
      expect(overSend.status).toBe(429);
      // Another test key has its own quota.
      const other = await createKey(world.api, world.tenant.cookie, { name: 'other', testMode: true });
      expect(await messagesToday(other)).toEqual({ used: 0, max: TEST_KEY_DAILY });
    });

    it('counts nothing for an edit refused before the network (a message deleted for everyone)', async () => {
      const peer = newPhone();
      const key = await createKey(world.api, world.tenant.cookie, { name: 'refused edit', testMode: true });
      const id = await sent(key, peer, 'to be deleted');
      expect((await world.api.delete(`/v1/chat/instances/${instance.id}/messages/${id}`, { key })).status).toBe(200);
      const late = await edit(key, id, 'too late');
      expect(late.body).toEqual(failure('message_deleted'));
      expect(await messagesToday(key)).toEqual({ used: 1, max: TEST_KEY_DAILY });
    });
  });

  describe('an inactive instance', () => {
    /** Every action a tenant takes through an instance, v1 with the key; the session variant with the cookie. */
    function actions(id: string, message: string, peer: string): Array<[string, (prefix: string, auth: { key?: string; cookie?: string }) => Promise<HttpResponse>]> {
      const to = digitsOf(peer);
      const at = (prefix: string, path: string) => `${prefix}/chat/instances/${id}${path}`;
      return [
        ['send a text', (p, auth) => world.api.post(at(p, '/messages'), { ...auth, body: { to, text: 'hello' } })],
        ['send a location', (p, auth) => world.api.post(at(p, '/messages'), { ...auth, body: { to, location: { latitude: 1, longitude: 2 } } })],
        ['send a poll', (p, auth) => world.api.post(at(p, '/messages'), { ...auth, body: { to, poll: { name: 'Lunch?', options: ['yes', 'no'] } } })],
        ['react', (p, auth) => world.api.post(at(p, '/messages'), { ...auth, body: { to, reaction: { messageId: message, emoji: '👍' } } })],
        ['reply', (p, auth) => world.api.post(at(p, '/messages'), { ...auth, body: { to, text: 'yes', quotedMessageId: message } })],
        ['edit', (p, auth) => world.api.request('PATCH', at(p, `/messages/${message}`), { ...auth, body: { text: 'changed' } })],
        ['delete for everyone', (p, auth) => world.api.delete(at(p, `/messages/${message}`), auth)],
        ['mark read', (p, auth) => world.api.post(at(p, `/messages/${message}/read`), auth)],
        ['presence', (p, auth) => world.api.post(at(p, `/chats/${to}/presence`), { ...auth, body: { state: 'composing' } })],
        ['number check', (p, auth) => world.api.post(at(p, '/contacts/check'), { ...auth, body: { phones: [to] } })],
        ['list groups', (p, auth) => world.api.get(at(p, '/groups'), auth)],
        ['create a group', (p, auth) => world.api.post(at(p, '/groups'), { ...auth, body: { subject: 'Never made', participants: [to] } })],
        ['read a group', (p, auth) => world.api.get(at(p, `/groups/${GROUP}`), auth)],
        ['update a group', (p, auth) => world.api.request('PATCH', at(p, `/groups/${GROUP}`), { ...auth, body: { subject: 'Renamed' } })],
        ['change participants', (p, auth) => world.api.post(at(p, `/groups/${GROUP}/participants`), { ...auth, body: { action: 'add', phones: [to] } })],
        ['invite code', (p, auth) => world.api.get(at(p, `/groups/${GROUP}/invite`), auth)],
        ['leave a group', (p, auth) => world.api.post(at(p, `/groups/${GROUP}/leave`), auth)],
      ];
    }

    it('refuses every action, REST and GraphQL, with 409 instance_inactive; managing it stays possible, and activated again it acts', async () => {
      const own = await connectedInstance(world, `inactive-${Date.now()}`);
      const peer = newPhone();
      const received = await world.api.post('/sandbox/messages', { body: { from: digitsOf(peer), to: own.phone, text: 'are you there?' } });
      expect(received.status, received.text).toBe(200);
      const message = received.body.data.messageId as string;
      const toggled = await world.api.post(`/v1/chat/instances/${own.id}/toggle`, { key: world.tenant.liveKey });
      expect(toggled.body.data).toMatchObject({ id: own.id, active: false });

      for (const [name, call] of actions(own.id, message, peer)) {
        for (const [prefix, auth] of [['/v1', { key: world.tenant.liveKey }], ['', { cookie: world.tenant.cookie }]] as const) {
          const answer = await call(prefix, auth);
          expect([name, prefix, answer.status, answer.body], answer.text).toEqual([name, prefix, 409, failure('instance_inactive')]);
        }
      }
      const sessionSends: Array<[string, unknown]> = [
        ['/v1/messages/send', { to: digitsOf(peer), text: 'routed here', instanceId: own.id }],
        [`/chat/instances/${own.id}/send-text`, { to: digitsOf(peer), message: 'hello' }],
      ];
      for (const [path, body] of sessionSends) {
        const answer = await world.api.post(path, path.startsWith('/v1') ? { key: world.tenant.liveKey, body } : { cookie: world.tenant.cookie, body });
        expect([path, answer.status, answer.body]).toEqual([path, 409, failure('instance_inactive')]);
      }

      const mutate = (field: string, type: string, input: Record<string, unknown>) =>
        world.api.graphql(`mutation ($input: ${type}!) { ${field}(input: $input) { userErrors { code } } }`, { input }, { key: world.tenant.liveKey });
      const base = { instanceId: own.id };
      const mutations: Array<[string, string, Record<string, unknown>]> = [
        ['sendMessage', 'SendMessageInput', { ...base, to: digitsOf(peer), poll: { name: 'Lunch?', options: ['yes', 'no'] } }],
        ['sendText', 'SendTextInput', { ...base, to: digitsOf(peer), message: 'hello' }],
        ['editMessage', 'EditMessageInput', { ...base, messageId: message, text: 'changed' }],
        ['deleteMessage', 'MessageActionInput', { ...base, messageId: message }],
        ['markMessageRead', 'MessageActionInput', { ...base, messageId: message }],
        ['sendPresence', 'SendPresenceInput', { ...base, chat: digitsOf(peer), state: 'composing' }],
        ['checkNumbers', 'CheckNumbersInput', { ...base, phones: [digitsOf(peer)] }],
        ['createGroup', 'CreateGroupInput', { ...base, subject: 'Never made', participants: [digitsOf(peer)] }],
        ['updateGroup', 'UpdateGroupInput', { ...base, groupId: GROUP, subject: 'Renamed' }],
        ['changeGroupParticipants', 'GroupParticipantsInput', { ...base, groupId: GROUP, action: 'add', phones: [digitsOf(peer)] }],
        ['groupInviteCode', 'GroupActionInput', { ...base, groupId: GROUP }],
        ['leaveGroup', 'GroupActionInput', { ...base, groupId: GROUP }],
      ];
      for (const [field, type, input] of mutations) {
        const answer = await mutate(field, type, input);
        expect([field, answer.body.data?.[field]], answer.text).toEqual([field, { userErrors: [{ code: 'instance_inactive' }] }]);
      }
      const groups = await world.api.graphql('query ($id: ID!) { instance(id: $id) { id groups { id } group(id: "120363000000000001@g.us") { id } } }', { id: own.id }, { key: world.tenant.liveKey });
      expect(groups.body.data.instance, groups.text).toEqual({ id: own.id, groups: null, group: null });
      expect(groups.body.errors!.map((e) => e.extensions?.code)).toEqual(['instance_inactive', 'instance_inactive']);

      // The network saw none of it: no typing state, no read mark, nothing received by the phone.
      const digits = digitsOf(peer);
      expect((await world.api.get(`/sandbox/phones/${digits}/presence`)).body.data).toEqual([]);
      expect((await world.api.get(`/sandbox/phones/${digits}/reads`)).body.data).toEqual([]);
      const inbox = await phoneInbox(world.api, peer);
      expect(inbox.status === 404 || inbox.body.data.length === 0, inbox.text).toBe(true);

      // Managing the instance is not acting through it.
      const key = { key: world.tenant.liveKey };
      expect((await world.api.get(`/v1/chat/instances/${own.id}`, key)).body.data).toMatchObject({ active: false, status: 'connected' });
      expect((await world.api.put(`/v1/chat/instances/${own.id}`, { ...key, body: { description: 'paused for now' } })).status).toBe(200);
      expect((await world.api.post(`/v1/chat/instances/${own.id}/webhook`, { ...key, body: { url: 'https://example.com/hooks', events: ['messages.upsert'] } })).status).toBe(200);
      expect((await world.api.get('/v1/messages/list', key)).status).toBe(200);
      expect((await world.api.post(`/v1/chat/instances/${own.id}/toggle`, key)).body.data).toMatchObject({ active: true });
      const typing = await world.api.post(`/v1/chat/instances/${own.id}/chats/${digits}/presence`, { ...key, body: { state: 'composing' } });
      expect(typing.status, typing.text).toBe(200);
      const presence = await eventually(() => world.api.get(`/sandbox/phones/${digits}/presence`), (r) => r.body.data.length === 1);
      expect(presence.body.data).toEqual([expect.objectContaining({ state: 'composing' })]);
    });

    it('refuses for an unknown or foreign instance as before (404), and checks the input first (400)', async () => {
      const other = await world.api.post(`/v1/chat/instances/00000000-0000-4000-8000-000000000000/chats/5511999990000/presence`, { key: world.tenant.liveKey, body: { state: 'composing' } });
      expect(other.status).toBe(404);
      const own = await connectedInstance(world, `inactive-input-${Date.now()}`);
      await world.api.post(`/v1/chat/instances/${own.id}/toggle`, { key: world.tenant.liveKey });
      const bad = await world.api.post(`/v1/chat/instances/${own.id}/chats/5511999990000/presence`, { key: world.tenant.liveKey, body: { state: 'dancing' } });
      expect(bad.status, bad.text).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    });
  });
});
