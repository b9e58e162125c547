import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { graphql } from '../../../graphql/generated/index.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';
import { subscribe, wsClient } from '../../../helpers/subscriptions.js';

/**
 * `chatUpdated` keeps an inbox live from its events alone (docs/graphql.md "Conversations"): a client
 * as a frontend writes it (urql with graphcache, no cache code) reads the chat list once, and every
 * later change reaches the cached list only through the subscription, over a real WebSocket.
 */

const Inbox = graphql(`
  query CachedInbox($id: ID!, $first: Int!) {
    instance(id: $id) {
      id
      chats(first: $first) {
        totalCount
        edges { node { id chatId name unreadCount pinned lastMessage { id text direction } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

const InboxUpdates = graphql(`
  subscription InboxUpdates($instanceId: ID) {
    chatUpdated(instanceId: $instanceId) {
      id
      instanceId
      chatId
      deleted
      chat { id chatId name unreadCount pinned lastMessage { id text direction } }
    }
  }
`);

const MarkRead = graphql(`
  mutation MarkChatReadForCache($input: ChatActionInput!) {
    markChatRead(input: $input) { chat { id unreadCount } userErrors { code field message } }
  }
`);

describe.each(MODES)('chatUpdated keeps a cached inbox live (urql graphcache) — $name', (mode) => {
  const world = sandboxWorld(mode, { tenants: ['enterprise', 'pro'] });
  let instance: { id: string; phone: string };

  function urql(key: string) {
    const ws = wsClient(world.gw.url, { key });
    const client = new Client({
      url: `${world.gw.url}/graphql`,
      fetchOptions: { headers: { authorization: `Bearer ${key}` } },
      exchanges: [
        cacheExchange({ resolvers: { Instance: { chats: relayPagination() } } }),
        fetchExchange,
        subscriptionExchange({
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
          }),
        }),
      ],
    });
    return { client, close: () => ws.dispose() };
  }

  const chatOf = async (chatId: string) =>
    (await world.api.graphql('query ($id: ID!, $c: String!) { instance(id: $id) { chat(chatId: $c) { unreadCount lastMessage { id } } } }', { id: instance.id, c: chatId }, { key: world.tenant.liveKey })).body
      .data?.instance?.chat;

  /** A phone writes to the instance; resolves once the gateway has stored it in its chat. */
  async function receive(from: string, text: string) {
    const sent = await world.api.post('/sandbox/messages', { body: { from, to: instance.phone, text } });
    expect(sent.status, sent.text).toBe(200);
    const id = sent.body.data.messageId as string;
    await eventually(() => chatOf(from.slice(1)), (chat) => chat?.lastMessage?.id === id);
    return id;
  }

  beforeAll(async () => {
    instance = await connectedInstance(world, `gql-inbox-${Date.now()}`);
  }, 60_000);

  it('raises the unread count and changes the last message on a new message, and drops it to 0 on read, from subscription events alone', async () => {
    const phone = newPhone();
    const chatId = phone.slice(1);
    await receive(phone, 'first');
    const { client, close } = urql(world.tenant.liveKey);
    try {
      const listed = await client.query(Inbox, { id: instance.id, first: 20 }).toPromise();
      expect(listed.error).toBeUndefined();
      const cached = () => client.readQuery(Inbox, { id: instance.id, first: 20 })!.data!.instance!.chats.edges.map((e) => e.node).find((n) => n.chatId === chatId);
      expect(cached()).toMatchObject({ unreadCount: 1, lastMessage: { text: 'first', direction: 'in' } });

      const updates: Array<{ chatId: string; deleted: boolean; unreadCount: number | null }> = [];
      const subscription = client.subscription(InboxUpdates, { instanceId: instance.id }).subscribe((result) => {
        const update = result.data?.chatUpdated;
        if (update) updates.push({ chatId: update.chatId, deleted: update.deleted, unreadCount: update.chat?.unreadCount ?? null });
      });
      try {
        // The stream starts with the instance's chats as they are.
        await eventually(async () => updates, (seen) => seen.some((u) => u.chatId === chatId && u.unreadCount === 1));

        // A new message reaches the cached list only through the subscription: no query runs again.
        const second = await world.api.post('/sandbox/messages', { body: { from: phone, to: instance.phone, text: 'second' } });
        expect(second.status).toBe(200);
        await eventually(async () => cached(), (chat) => chat?.unreadCount === 2);
        expect(cached()).toMatchObject({ unreadCount: 2, lastMessage: { id: second.body.data.messageId, text: 'second', direction: 'in' } });

        // Read elsewhere (another client, plain HTTP): the cache hears of it from the event alone.
        const read = await world.api.graphql('mutation ($input: ChatActionInput!) { markChatRead(input: $input) { userErrors { code } } }', { input: { instanceId: instance.id, chatId } }, { key: world.tenant.liveKey });
        expect(read.body.data.markChatRead.userErrors, read.text).toEqual([]);
        await eventually(async () => cached(), (chat) => chat?.unreadCount === 0);

        // A message sent to the chat becomes its last message, and reading it here updates the cache from the payload too.
        const sent = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key: world.tenant.liveKey, body: { to: chatId, text: 'answer' } });
        expect(sent.status, sent.text).toBeLessThan(300);
        await eventually(async () => cached(), (chat) => chat?.lastMessage?.text === 'answer');
        expect(cached()!.lastMessage!.direction).toBe('out');
        await receive(phone, 'third');
        await eventually(async () => cached(), (chat) => chat?.unreadCount === 1);
        const marked = await client.mutation(MarkRead, { input: { instanceId: instance.id, chatId } }).toPromise();
        expect(marked.data!.markChatRead.userErrors).toEqual([]);
        expect(cached()!.unreadCount).toBe(0);
      } finally {
        subscription.unsubscribe();
      }
    } finally {
      await close();
    }
  });

  it('streams every instance of the tenant without instanceId, tells of a deleted chat, and keeps other tenants out', async () => {
    const other = await connectedInstance(world, `gql-inbox-other-${Date.now()}`);
    const known = newPhone();
    await receive(known, 'known before');
    const ws = wsClient(world.gw.url, { key: world.tenant.liveKey });
    try {
      const events = subscribe(ws, InboxUpdates, {});
      // The state first: the chats of the tenant's instances as they are.
      let first = await events.next(10_000);
      while (first.data?.chatUpdated.chatId !== known.slice(1)) first = await events.next(10_000);
      expect(first.data!.chatUpdated).toMatchObject({ instanceId: instance.id, deleted: false, chat: { unreadCount: 1, lastMessage: { text: 'known before' } } });

      // A new chat on the other instance arrives as the chat, with its first message.
      const phone = newPhone();
      const wrote = await world.api.post('/sandbox/messages', { body: { from: phone, to: other.phone, text: 'to the other' } });
      expect(wrote.status).toBe(200);
      let update = await events.next(10_000);
      while (update.data?.chatUpdated.chatId !== phone.slice(1)) update = await events.next(10_000);
      expect(update.data!.chatUpdated).toMatchObject({ id: `chat:${other.id}:${phone.slice(1)}`, instanceId: other.id, deleted: false, chat: { unreadCount: 1, lastMessage: { text: 'to the other', direction: 'in' } } });

      // A deleted chat comes as deleted, with its id and no chat.
      const deleted = await world.api.graphql('mutation ($input: ChatActionInput!) { deleteChat(input: $input) { deletedChatId userErrors { code } } }', { input: { instanceId: other.id, chatId: phone.slice(1) } }, { key: world.tenant.liveKey });
      expect(deleted.body.data.deleteChat.userErrors, deleted.text).toEqual([]);
      let gone = await events.next(10_000);
      while (!gone.data?.chatUpdated.deleted) gone = await events.next(10_000);
      expect(gone.data!.chatUpdated).toEqual({ id: `chat:${other.id}:${phone.slice(1)}`, instanceId: other.id, chatId: phone.slice(1), deleted: true, chat: null });
      await events.stop();

      // Another tenant: refused for this instance, and its tenant-wide stream never shows this tenant's chats.
      const stranger = wsClient(world.gw.url, { key: world.tenants[1]!.liveKey });
      try {
        const refused = await subscribe(stranger, InboxUpdates, { instanceId: instance.id }).next(10_000);
        expect(refused.errors?.[0]?.extensions?.code).toBe('forbidden');
        const theirs = subscribe(stranger, InboxUpdates, {});
        await receive(newPhone(), 'not for strangers');
        await expect(theirs.next(1000)).rejects.toThrow();
        await theirs.stop();
      } finally {
        await stranger.dispose();
      }
    } finally {
      await ws.dispose();
    }
  });
});
