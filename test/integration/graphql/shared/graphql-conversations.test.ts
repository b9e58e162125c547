import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

/**
 * Conversations over GraphQL (docs/graphql.md "Conversations"): an instance's chats and contacts
 * paged and filtered, a chat's messages paged backwards, node(id), every chat and contact mutation
 * with its bad input, and another tenant's instance as absent as an unknown one.
 */

const CHAT = 'id chatId instanceId kind name unreadCount archived pinned mutedUntil updatedAt lastMessage { id text direction chatId history }';
const CHATS = `query ($id: ID!, $first: Int, $after: String, $filter: ChatFilter, $search: String) {
  instance(id: $id) { chats(first: $first, after: $after, filter: $filter, search: $search) {
    totalCount edges { cursor node { ${CHAT} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }
}`;
const ONE_CHAT = `query ($id: ID!, $chatId: String!) { instance(id: $id) { chat(chatId: $chatId) { ${CHAT} } } }`;
const MESSAGES = `query ($id: ID!, $chatId: String!, $last: Int, $before: String) {
  instance(id: $id) { chat(chatId: $chatId) { messages(last: $last, before: $before) {
    totalCount edges { cursor node { id text } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }
}`;
const NODE = `query ($id: ID!) { node(id: $id) { __typename id ... on Chat { chatId unreadCount } ... on Contact { phone blocked } } }`;
const ACT = (name: string, input = 'ChatActionInput') =>
  `mutation ($input: ${input}!) { ${name}(input: $input) { chat { ${CHAT} } userErrors { code field message } } }`;
const CONTACT = 'id contactId instanceId phone lid name pushName onNetwork business about blocked picture { url expiresAt }';

describe.each(MODES)('GraphQL conversations: chats, messages, contacts and their mutations — $name', (mode) => {
  const world = sandboxWorld(mode, { tenants: ['enterprise', 'pro'] });
  let instance: { id: string; phone: string };
  const phones = [newPhone(), newPhone(), newPhone()];
  const chatIds = phones.map((phone) => phone.slice(1));
  const written: string[] = [];

  const gql = (query: string, variables: Record<string, unknown> = {}, key = world.tenant.liveKey) => world.api.graphql(query, variables, { key });
  const chatOf = async (chatId: string) => (await gql(ONE_CHAT, { id: instance.id, chatId })).body.data?.instance?.chat;

  /** A phone writes to the instance; resolves once the message is its chat's newest. */
  async function receive(from: string, text: string) {
    const sent = await world.api.post('/sandbox/messages', { body: { from, to: instance.phone, text } });
    expect(sent.status, sent.text).toBe(200);
    const id = sent.body.data.messageId as string;
    await eventually(() => chatOf(from.slice(1)), (chat) => chat?.lastMessage?.id === id);
    return id;
  }

  beforeAll(async () => {
    instance = await connectedInstance(world, `gql-chats-${Date.now()}`);
    // The first phone writes first and last: the list shows it first, then the third, then the second.
    written.push(await receive(phones[0]!, 'one'));
    await receive(phones[1]!, 'from the second');
    await receive(phones[2]!, 'from the third');
    written.push(await receive(phones[0]!, 'two'));
    written.push(await receive(phones[0]!, 'three'));
  }, 60_000);

  it('pages the chats, newest activity first, with totalCount, and filters and searches them', async () => {
    const first = await gql(CHATS, { id: instance.id, first: 2 });
    expect(first.body.errors, first.text).toBeUndefined();
    const page = first.body.data.instance.chats;
    expect(page.totalCount).toBe(3);
    expect(page.edges.map((e: any) => e.node.chatId)).toEqual([chatIds[0], chatIds[2]]);
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: page.edges[0].cursor, endCursor: page.edges[1].cursor });
    expect(page.edges[0].node).toMatchObject({
      id: `chat:${instance.id}:${chatIds[0]}`,
      instanceId: instance.id,
      kind: 'direct',
      unreadCount: 3,
      archived: false,
      pinned: false,
      mutedUntil: null,
      lastMessage: { id: written[2], text: 'three', direction: 'in', chatId: chatIds[0], history: false },
    });
    const second = await gql(CHATS, { id: instance.id, first: 2, after: page.pageInfo.endCursor });
    expect(second.body.data.instance.chats.edges.map((e: any) => e.node.chatId)).toEqual([chatIds[1]]);
    expect(second.body.data.instance.chats.pageInfo.hasNextPage).toBe(false);

    const direct = await gql(CHATS, { id: instance.id, filter: 'direct' });
    expect(direct.body.data.instance.chats.totalCount).toBe(3);
    const groups = await gql(CHATS, { id: instance.id, filter: 'groups' });
    expect(groups.body.data.instance.chats).toMatchObject({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
    const searched = await gql(CHATS, { id: instance.id, search: chatIds[1]!.slice(-6) });
    expect(searched.body.data.instance.chats.edges.map((e: any) => e.node.chatId)).toEqual([chatIds[1]]);
    expect(searched.body.data.instance.chats.totalCount).toBe(1);
  });

  it('refuses a bad page, cursor or search as a field error naming the argument', async () => {
    for (const [variables, field] of [
      [{ first: 101 }, 'first'],
      [{ after: 'not-a-cursor' }, 'after'],
      [{ search: 'x'.repeat(101) }, 'search'],
    ] as const) {
      const refused = await gql(CHATS, { id: instance.id, ...variables });
      // The connection is not nullable: the refusal nulls the instance that holds it.
      expect(refused.body.data?.instance ?? null, refused.text).toBeNull();
      expect(refused.body.errors?.[0]?.extensions?.code, refused.text).toBe('invalid_request');
      expect(refused.body.errors?.[0]?.message).toContain(field);
    }
    const filter = await gql(CHATS, { id: instance.id, filter: 'starred' });
    expect(filter.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
  });

  it("pages a chat's messages backwards: the newest last, older pages before startCursor", async () => {
    const newest = await gql(MESSAGES, { id: instance.id, chatId: chatIds[0], last: 2 });
    expect(newest.body.errors, newest.text).toBeUndefined();
    const page = newest.body.data.instance.chat.messages;
    expect(page.totalCount).toBe(3);
    expect(page.edges.map((e: any) => e.node.text)).toEqual(['two', 'three']);
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, startCursor: page.edges[0].cursor, endCursor: page.edges[1].cursor });
    const older = await gql(MESSAGES, { id: instance.id, chatId: chatIds[0], last: 2, before: page.pageInfo.startCursor });
    const previous = older.body.data.instance.chat.messages;
    expect(previous.edges.map((e: any) => e.node.id)).toEqual([written[0]]);
    expect(previous.pageInfo.hasPreviousPage).toBe(false);
    const bad = await gql(MESSAGES, { id: instance.id, chatId: chatIds[0], before: 'nope' });
    expect(bad.body.errors?.[0]).toMatchObject({ extensions: { code: 'invalid_request' } });
    expect(bad.body.errors?.[0]?.message).toContain('before');
  });

  it('finds a chat by node(id), and not an unknown one or another tenant’s', async () => {
    const id = `chat:${instance.id}:${chatIds[1]}`;
    const found = await gql(NODE, { id });
    expect(found.body.data.node).toEqual({ __typename: 'Chat', id, chatId: chatIds[1], unreadCount: 1 });
    for (const unknown of [`chat:${instance.id}:5511900000001`, `chat:${instance.id}:x`, 'chat:nope:5511900000001']) {
      const missing = await gql(NODE, { id: unknown });
      expect(missing.body.data.node, missing.text).toBeNull();
      expect(missing.body.errors?.[0]?.extensions?.code).toBe('not_found');
    }
    const stranger = world.tenants[1]!.liveKey;
    const theirs = await gql(NODE, { id }, stranger);
    expect(theirs.body.data.node).toBeNull();
    expect(theirs.body.errors?.[0]?.extensions?.code).toBe('not_found');
    const instanceOfTheirs = await gql(ONE_CHAT, { id: instance.id, chatId: chatIds[1] }, stranger);
    expect(instanceOfTheirs.body.data.instance).toBeNull();
    expect(instanceOfTheirs.body.errors?.[0]?.extensions?.code).toBe('not_found');
    const noChat = await gql(ONE_CHAT, { id: instance.id, chatId: '5511900000001' });
    expect(noChat.body.data.instance.chat).toBeNull();
    expect(noChat.body.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('marks read and unread, archives, pins and mutes, each answering the chat as it is now', async () => {
    const chatId = chatIds[2]!;
    const input = { instanceId: instance.id, chatId };
    const read = await gql(ACT('markChatRead'), { input });
    expect(read.body.data.markChatRead.userErrors, read.text).toEqual([]);
    expect(read.body.data.markChatRead.chat).toMatchObject({ id: `chat:${instance.id}:${chatId}`, unreadCount: 0 });
    const unread = await gql(CHATS, { id: instance.id, filter: 'unread' });
    expect(unread.body.data.instance.chats.edges.map((e: any) => e.node.chatId)).not.toContain(chatId);
    const markedUnread = await gql(ACT('markChatUnread'), { input });
    expect(markedUnread.body.data.markChatUnread.userErrors).toEqual([]);
    expect((await gql(CHATS, { id: instance.id, filter: 'unread' })).body.data.instance.chats.edges.map((e: any) => e.node.chatId)).toContain(chatId);

    expect((await gql(ACT('archiveChat'), { input })).body.data.archiveChat.chat.archived).toBe(true);
    const archived = await gql(CHATS, { id: instance.id, filter: 'archived' });
    expect(archived.body.data.instance.chats.edges.map((e: any) => e.node.chatId)).toEqual([chatId]);
    expect((await gql(ACT('unarchiveChat'), { input })).body.data.unarchiveChat.chat.archived).toBe(false);

    // A pinned chat leads the list, whatever its activity.
    expect((await gql(ACT('pinChat'), { input: { instanceId: instance.id, chatId: chatIds[1] } })).body.data.pinChat.chat.pinned).toBe(true);
    const pinnedFirst = await gql(CHATS, { id: instance.id });
    expect(pinnedFirst.body.data.instance.chats.edges[0].node.chatId).toBe(chatIds[1]);
    expect((await gql(ACT('unpinChat'), { input: { instanceId: instance.id, chatId: chatIds[1] } })).body.data.unpinChat.chat.pinned).toBe(false);

    const forever = await gql(ACT('muteChat', 'MuteChatInput'), { input: { ...input, until: 'forever' } });
    expect(forever.body.data.muteChat).toMatchObject({ chat: { mutedUntil: 'forever' }, userErrors: [] });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const hour = await gql(ACT('muteChat', 'MuteChatInput'), { input: { ...input, until } });
    expect(hour.body.data.muteChat.chat.mutedUntil).toBe(until);
    expect((await gql(ACT('unmuteChat'), { input })).body.data.unmuteChat.chat.mutedUntil).toBeNull();
  });

  it('reports bad input of the chat mutations as userErrors naming the field, and another tenant’s instance as not_found', async () => {
    const mute = await gql(ACT('muteChat', 'MuteChatInput'), { input: { instanceId: instance.id, chatId: chatIds[0], until: '2001-01-01T00:00:00Z' } });
    expect(mute.body.data.muteChat).toEqual({ chat: null, userErrors: [{ code: 'invalid_request', field: ['until'], message: 'must be in the future, or "forever"' }] });
    const garbage = await gql(ACT('muteChat', 'MuteChatInput'), { input: { instanceId: instance.id, chatId: chatIds[0], until: 'tomorrow' } });
    expect(garbage.body.data.muteChat.userErrors).toEqual([{ code: 'invalid_request', field: ['until'], message: 'must be an ISO 8601 time or "forever"' }]);
    const malformed = await gql(ACT('archiveChat'), { input: { instanceId: instance.id, chatId: 'not a chat' } });
    expect(malformed.body.data.archiveChat.userErrors).toEqual([{ code: 'invalid_request', field: ['chatId'], message: 'must be a chat id: phone digits, <lid>@lid or a group id' }]);
    const unknown = await gql(ACT('pinChat'), { input: { instanceId: instance.id, chatId: '5511900000001' } });
    expect(unknown.body.data.pinChat.userErrors).toEqual([{ code: 'invalid_request', field: ['chatId'], message: 'is no chat of this instance' }]);

    const stranger = world.tenants[1]!.liveKey;
    const theirs = await gql(ACT('markChatRead'), { input: { instanceId: instance.id, chatId: chatIds[0] } }, stranger);
    expect(theirs.body.data.markChatRead).toEqual({ chat: null, userErrors: [{ code: 'not_found', field: null, message: 'Instance not found.' }] });
    const deleteTheirs = await gql('mutation ($input: ChatActionInput!) { deleteChat(input: $input) { deletedChatId userErrors { code } } }', { input: { instanceId: instance.id, chatId: chatIds[0] } }, stranger);
    expect(deleteTheirs.body.data.deleteChat).toEqual({ deletedChatId: null, userErrors: [{ code: 'not_found' }] });
    expect((await chatOf(chatIds[0]!)).unreadCount).toBe(3);

    const HISTORY = 'mutation ($input: RequestChatHistoryInput!) { requestChatHistory(input: $input) { requested userErrors { code field message } } }';
    const tooMany = await gql(HISTORY, { input: { instanceId: instance.id, chatId: chatIds[0], count: 501 } });
    expect(tooMany.body.data.requestChatHistory).toEqual({ requested: false, userErrors: [{ code: 'invalid_request', field: ['count'], message: 'must be a whole number from 1 to 500' }] });
    // The sandbox's phone answers from its past (docs/engines.md, "The sandbox's past"; none was given here).
    const asked = await gql(HISTORY, { input: { instanceId: instance.id, chatId: chatIds[0], count: 10 } });
    expect(asked.body.data.requestChatHistory).toEqual({ requested: true, userErrors: [] });
  });

  it('blocks and unblocks a contact, lists and finds it, and refuses a bad phone', async () => {
    const phone = chatIds[1]!;
    const BLOCK = (name: string) => `mutation ($input: ContactActionInput!) { ${name}(input: $input) { contact { ${CONTACT} } userErrors { code field message } } }`;
    const blocked = await gql(BLOCK('blockContact'), { input: { instanceId: instance.id, phone } });
    expect(blocked.body.data.blockContact.userErrors, blocked.text).toEqual([]);
    expect(blocked.body.data.blockContact.contact).toMatchObject({ id: `contact:${instance.id}:${phone}`, contactId: phone, instanceId: instance.id, phone, blocked: true });

    const CONTACTS = `query ($id: ID!, $first: Int, $after: String, $search: String) { instance(id: $id) { contacts(first: $first, after: $after, search: $search) {
      totalCount edges { cursor node { ${CONTACT} } } pageInfo { hasNextPage endCursor } } } }`;
    const listed = await gql(CONTACTS, { id: instance.id, search: phone });
    expect(listed.body.errors, listed.text).toBeUndefined();
    expect(listed.body.data.instance.contacts.edges.map((e: any) => e.node)).toEqual([expect.objectContaining({ phone, blocked: true })]);
    expect(listed.body.data.instance.contacts.totalCount).toBe(1);
    const paged = await gql(CONTACTS, { id: instance.id, first: 1 });
    const all = paged.body.data.instance.contacts;
    expect(all.edges).toHaveLength(1);
    if (all.pageInfo.hasNextPage) {
      const next = await gql(CONTACTS, { id: instance.id, first: 1, after: all.pageInfo.endCursor });
      expect(next.body.data.instance.contacts.edges[0].node.id).not.toBe(all.edges[0].node.id);
    }

    const ONE = `query ($id: ID!, $phone: String!) { instance(id: $id) { contact(phone: $phone) { id phone blocked } } }`;
    const one = await gql(ONE, { id: instance.id, phone: `+${phone}` });
    expect(one.body.data.instance.contact).toEqual({ id: `contact:${instance.id}:${phone}`, phone, blocked: true });
    // A number never met is looked up on the network (the sandbox has profiles), and known from then on.
    const met = await gql(ONE, { id: instance.id, phone: '5511900000001' });
    expect(met.body.data.instance.contact).toEqual({ id: `contact:${instance.id}:5511900000001`, phone: '5511900000001', blocked: false });
    const node = await gql(NODE, { id: `contact:${instance.id}:${phone}` });
    expect(node.body.data.node).toEqual({ __typename: 'Contact', id: `contact:${instance.id}:${phone}`, phone, blocked: true });
    const unblocked = await gql(BLOCK('unblockContact'), { input: { instanceId: instance.id, phone } });
    expect(unblocked.body.data.unblockContact.contact.blocked).toBe(false);
    const bad = await gql(BLOCK('blockContact'), { input: { instanceId: instance.id, phone: 'abc' } });
    expect(bad.body.data.blockContact).toEqual({ contact: null, userErrors: [{ code: 'invalid_request', field: ['phone'], message: 'must be a phone number: digits with the country code' }] });
    const theirs = await gql(BLOCK('blockContact'), { input: { instanceId: instance.id, phone } }, world.tenants[1]!.liveKey);
    expect(theirs.body.data.blockContact.userErrors.map((e: any) => e.code)).toEqual(['not_found']);
    const strangerNode = await gql(NODE, { id: `contact:${instance.id}:${phone}` }, world.tenants[1]!.liveKey);
    expect(strangerNode.body.data.node).toBeNull();
  });

  it('deletes a chat with its messages, answering its Node id', async () => {
    const from = newPhone();
    await receive(from, 'to be forgotten');
    const deleted = await gql('mutation ($input: ChatActionInput!) { deleteChat(input: $input) { deletedChatId userErrors { code field message } } }', {
      input: { instanceId: instance.id, chatId: from.slice(1) },
    });
    expect(deleted.body.data.deleteChat).toEqual({ deletedChatId: `chat:${instance.id}:${from.slice(1)}`, userErrors: [] });
    const gone = await gql(NODE, { id: `chat:${instance.id}:${from.slice(1)}` });
    expect(gone.body.data.node).toBeNull();
    const again = await gql('mutation ($input: ChatActionInput!) { deleteChat(input: $input) { deletedChatId userErrors { code field } } }', {
      input: { instanceId: instance.id, chatId: from.slice(1) },
    });
    expect(again.body.data.deleteChat).toEqual({ deletedChatId: null, userErrors: [{ code: 'invalid_request', field: ['chatId'] }] });
  });

  it('counts the chats and their messages against the cost limits like every connection', async () => {
    const heavy = await gql('query ($id: ID!) { instance(id: $id) { chats(first: 100) { edges { node { messages(last: 100) { edges { node { id text } } } } } } } }', { id: instance.id });
    expect(heavy.body.data).toBeUndefined();
    expect(heavy.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', limit: 'cost' });
  });
});
