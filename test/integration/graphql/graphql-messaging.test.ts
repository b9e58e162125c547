import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { MODES } from '../../kit/modes.js';
import { sseClient, subscribe, wsClient } from '../../helpers/subscriptions.js';
import { connectedInstance, sandboxWorld } from '../../kit/worlds/sandbox.js';

interface Received {
  messageReceived: { messageId: string; instanceId: string; timestamp: string; message: { id: string; text: string; from: string; direction: string } };
}
const RECEIVED = parse(
  'subscription ($instanceId: ID) { messageReceived(instanceId: $instanceId) { messageId instanceId timestamp message { id text from direction } } }',
) as TypedDocumentNode<Received, Record<string, unknown>>;
const SEND = 'mutation ($input: SendMessageInput!) { sendMessage(input: $input) { message { id type status } userErrors { code field message } } }';

/** The messaging surface over GraphQL (docs/graphql.md): every kind through sendMessage, the actions, and received messages live. */
describe.each(MODES)('GraphQL messaging: sendMessage of every kind, actions, messageReceived — $name', (mode) => {
  const world = sandboxWorld(mode, { tenants: ['enterprise', 'pro'] });
  let instance: { id: string; phone: string };
  let other: { id: string; phone: string };

  const gql = (query: string, variables: Record<string, unknown>) => world.api.graphql(query, variables, { key: world.tenant.liveKey });

  beforeAll(async () => {
    instance = await connectedInstance(world, `gql-msg-${Date.now()}`);
    other = await connectedInstance(world, `gql-msg-other-${Date.now()}`);
  }, 60_000);

  it('sends every kind the engine carries through sendMessage, refuses what it lacks as a user error, and lists integrations with capabilities', async () => {
    const to = newPhone().slice(1);
    const kinds: Array<[Record<string, unknown>, string]> = [
      [{ text: 'hello @5511977776666', mentions: ['5511977776666'] }, 'text'],
      [{ location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP' } }, 'location'],
      [{ contacts: [{ displayName: 'Jane', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Jane\nEND:VCARD' }] }, 'contact'],
    ];
    for (const [content, type] of kinds) {
      const answer = await gql(SEND, { input: { instanceId: instance.id, to, ...content } });
      expect(answer.body.data.sendMessage.userErrors, answer.text).toEqual([]);
      expect(answer.body.data.sendMessage.message.type).toBe(type);
    }
    const inbox = (await eventually(() => phoneInbox(world.api, to), (r) => r.body.data.length >= 3)).body.data as Array<Record<string, any>>;
    expect(inbox.map((entry) => entry.type)).toEqual(['text', 'location', 'contact']);
    expect(inbox[0]!.mentions).toEqual(['5511977776666']);
    expect(inbox[1]!.location).toMatchObject({ latitude: -23.5613, longitude: -46.6565, name: 'MASP' });

    const template = await gql(SEND, { input: { instanceId: instance.id, to, template: { name: 'order_update', language: 'en' } } });
    expect(template.body.data.sendMessage).toEqual({ message: null, userErrors: [{ code: 'not_supported', field: null, message: 'CHAT-SANDBOX does not support template.' }] });
    const routedLocation = await gql(SEND, { input: { to, location: { latitude: 1, longitude: 2 } } });
    expect(routedLocation.body.data.sendMessage.userErrors).toEqual([{ code: 'invalid_request', field: ['instanceId'], message: 'is required with location: only a text or a template is routed' }]);
    const two = await gql(SEND, { input: { instanceId: instance.id, to, text: 'a', location: { latitude: 1, longitude: 2 } } });
    expect(two.body.data.sendMessage.userErrors).toEqual([{ code: 'invalid_request', field: ['location'], message: 'give only one of text, location' }]);

    const integrations = await gql('{ integrations { integration capabilities } }', {});
    expect(integrations.body.data.integrations).toEqual([
      { integration: 'CHAT-SANDBOX', capabilities: ['text', 'media', 'voice', 'sticker', 'location', 'contacts', 'reaction', 'reply', 'mentions', 'edit', 'delete', 'read', 'typing', 'number_check', 'groups', 'group_admin', 'poll', 'history', 'chat_state', 'block', 'profile', 'calls', 'always_online', 'own_profile', 'privacy'] },
    ]);
  });

  it('answers a send with the stored message and its relations when asked for more than the send knows', async () => {
    const to = newPhone().slice(1);
    const answer = await gql(
      'mutation ($input: SendMessageInput!) { sendMessage(input: $input) { message { id text to direction instance { id name } } userErrors { code } } }',
      { input: { instanceId: instance.id, to, text: 'with its instance' } },
    );
    expect(answer.body.data.sendMessage.userErrors, answer.text).toEqual([]);
    const message = answer.body.data.sendMessage.message;
    expect(message).toMatchObject({ text: 'with its instance', to, direction: 'out', instance: { id: instance.id } });
    expect(message.instance.name).toMatch(/^gql-msg-\d+$/);
  });

  it('edits, deletes, marks read, sends presence and checks numbers, each seen on the phone', async () => {
    const to = newPhone().slice(1);
    const sent = await gql(SEND, { input: { instanceId: instance.id, to, text: 'first words' } });
    const id = sent.body.data.sendMessage.message.id as string;
    await eventually(() => world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey }), (r) => ['sent', 'delivered', 'read'].includes(r.body.data?.status));

    const edit = await gql('mutation ($input: EditMessageInput!) { editMessage(input: $input) { message { id text editedAt } userErrors { code message } } }', {
      input: { instanceId: instance.id, messageId: id, text: 'better words' },
    });
    expect(edit.body.data.editMessage.userErrors, edit.text).toEqual([]);
    expect(edit.body.data.editMessage.message).toMatchObject({ id, text: 'better words' });
    expect(edit.body.data.editMessage.message.editedAt).toEqual(expect.any(String));

    const presence = await gql('mutation ($input: SendPresenceInput!) { sendPresence(input: $input) { done userErrors { code } } }', { input: { instanceId: instance.id, chat: to, state: 'composing' } });
    expect(presence.body.data.sendPresence).toEqual({ done: true, userErrors: [] });
    const checked = await gql('mutation ($input: CheckNumbersInput!) { checkNumbers(input: $input) { numbers { phone exists } userErrors { code } } }', {
      input: { instanceId: instance.id, phones: [other.phone.slice(1), '5511900000000'] },
    });
    expect(checked.body.data.checkNumbers).toEqual({ numbers: [{ phone: other.phone.slice(1), exists: true }, { phone: '5511900000000', exists: false }], userErrors: [] });
    const deleted = await gql('mutation ($input: MessageActionInput!) { deleteMessage(input: $input) { done userErrors { code } } }', { input: { instanceId: instance.id, messageId: id } });
    expect(deleted.body.data.deleteMessage).toEqual({ done: true, userErrors: [] });

    const entry = (await eventually(() => phoneInbox(world.api, to), (r) => r.body.data[0]?.deleted !== undefined)).body.data[0] as Record<string, any>;
    expect(entry).toMatchObject({ id, text: 'first words', edited: { text: 'better words' }, deleted: { at: expect.any(String) } });
    const record = await gql('query ($id: ID!) { message(id: $id) { deletedAt editedAt } }', { id });
    expect(record.body.data.message.deletedAt, record.text).toEqual(expect.any(String));
    expect(Date.parse(record.body.data.message.deletedAt)).toBeGreaterThanOrEqual(Date.parse(record.body.data.message.editedAt));
    const states = await world.api.get(`/sandbox/phones/${to}/presence`);
    expect(states.body.data).toEqual([expect.objectContaining({ from: instance.phone.slice(1), state: 'composing' })]);

    // A received message, read through GraphQL: the phone sees the read mark; a sent one cannot be marked read.
    const fromPhone = await world.api.post('/sandbox/messages', { body: { from: to, to: instance.phone, text: 'seen?' } });
    const received = fromPhone.body.data.messageId as string;
    const read = await gql('mutation ($input: MessageActionInput!) { markMessageRead(input: $input) { done userErrors { code } } }', { input: { instanceId: instance.id, messageId: received } });
    expect(read.body.data.markMessageRead).toEqual({ done: true, userErrors: [] });
    const reads = await world.api.get(`/sandbox/phones/${to}/reads`);
    expect(reads.body.data).toEqual([expect.objectContaining({ messageId: received })]);
    const wrong = await gql('mutation ($input: MessageActionInput!) { markMessageRead(input: $input) { done userErrors { code } } }', { input: { instanceId: instance.id, messageId: id } });
    expect(wrong.body.data.markMessageRead).toEqual({ done: false, userErrors: [{ code: 'message_not_yours' }] });
  });

  describe('messageReceived', () => {
    const clients: Array<{ dispose(): void | Promise<void> }> = [];
    afterAll(async () => {
      for (const client of clients) await client.dispose();
    });

    /**
     * Phones write to the instance until the subscription shows one of their messages (a subscription
     * is live only some time after it is asked for); the event must be one of them, with its text.
     */
    async function firstDelivered(transport: 'ws' | 'sse', variables: Record<string, unknown>, to: { phone: string }) {
      const client = transport === 'ws' ? wsClient(world.gw.url, { key: world.tenant.liveKey }) : sseClient(world.gw.url, { key: world.tenant.liveKey });
      clients.push(client);
      const events = subscribe(client, RECEIVED, variables);
      const phone = newPhone();
      const written = new Map<string, string>();
      for (let attempt = 0; attempt < 30; attempt++) {
        const text = `${transport} hello ${attempt}`;
        const answer = await world.api.post('/sandbox/messages', { body: { from: phone, to: to.phone, text } });
        expect(answer.status, answer.text).toBe(200);
        written.set(answer.body.data.messageId, text);
        const event = await events.next(1000).catch(() => null);
        if (!event) continue;
        await events.stop();
        return { event, written };
      }
      throw new Error(`no messageReceived event over ${transport}`);
    }

    for (const transport of ['ws', 'sse'] as const) {
      it(`delivers a message a phone sent over ${transport === 'ws' ? 'WebSocket' : 'SSE'}, for one instance and for the tenant`, async () => {
        for (const variables of [{ instanceId: instance.id }, {}]) {
          const { event, written } = await firstDelivered(transport, variables, instance);
          const data = event.data!.messageReceived;
          expect(written.has(data.messageId)).toBe(true);
          expect(data.instanceId).toBe(instance.id);
          expect(data.message).toMatchObject({ id: data.messageId, text: written.get(data.messageId), direction: 'in' });
        }
      });
    }

    it("shows one instance's subscriber only that instance's messages, and refuses another tenant's instance", async () => {
      const client = wsClient(world.gw.url, { key: world.tenant.liveKey });
      clients.push(client);
      const events = subscribe(client, RECEIVED, { instanceId: instance.id });
      const phone = newPhone();
      const mine = new Set<string>();
      let event = null;
      // Each round writes to the other instance first, then to this one: whatever arrives must be this instance's.
      for (let attempt = 0; attempt < 30 && !event; attempt++) {
        await world.api.post('/sandbox/messages', { body: { from: phone, to: other.phone, text: `not for you ${attempt}` } });
        const answer = await world.api.post('/sandbox/messages', { body: { from: phone, to: instance.phone, text: `for you ${attempt}` } });
        mine.add(answer.body.data.messageId);
        event = await events.next(1000).catch(() => null);
      }
      expect(event, 'no messageReceived event').not.toBeNull();
      const data = event!.data!.messageReceived;
      expect(data.instanceId).toBe(instance.id);
      expect(mine.has(data.messageId)).toBe(true);
      await events.stop();

      const stranger = world.tenants[1]!;
      const strangerClient = wsClient(world.gw.url, { key: stranger.liveKey });
      clients.push(strangerClient);
      const refused = await subscribe(strangerClient, RECEIVED, { instanceId: instance.id }).next(10_000);
      expect(refused.errors?.[0]?.extensions?.code).toBe('forbidden');
    });
  });
});
