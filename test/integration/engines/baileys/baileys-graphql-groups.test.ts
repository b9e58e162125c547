import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { ChangeGroupParticipants, CreateGroup, GroupInviteCode, InstanceGroups, LeaveGroup, MessageGroupAndPoll, UpdateGroup } from '../../../graphql/operations.js';
import { MODES } from '../../../kit/modes.js';
import { subscribe, wsClient } from '../../../helpers/subscriptions.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';

interface Received {
  messageReceived: { messageId: string; message: { id: string; text: string | null; from: string | null; group: { id: string; subject: string | null } | null } };
}
const RECEIVED = parse(
  'subscription ($instanceId: ID) { messageReceived(instanceId: $instanceId) { messageId message { id text from group { id subject } } } }',
) as TypedDocumentNode<Received, Record<string, unknown>>;

/** Group management over GraphQL (docs/graphql.md "Groups"), against the local chat network through CHAT-BAILEYS. */
describe.each(MODES)('GraphQL groups on CHAT-BAILEYS — $name', (mode) => {
  const world = baileysWorld(mode, { tenants: ['enterprise', 'pro'] });
  let instance: { id: string; phone: string };
  let theirs: string;
  let key: string;
  const clients: Array<{ dispose(): void | Promise<void> }> = [];

  beforeAll(async () => {
    key = world.tenant.liveKey;
    instance = await pairedV1(world.api, key, world.network, `gql groups ${Date.now()}`);
    const created = await world.api.post('/v1/chat/instances', { key: world.tenants[1]!.liveKey, body: { name: `gql groups theirs ${Date.now()}` } });
    expect(created.status, created.text).toBe(201);
    theirs = created.body.data.id;
  }, 90_000);
  afterAll(async () => {
    for (const c of clients) await c.dispose();
  });

  const me = () => instance.phone.slice(1);
  const groupsOnNetwork = async () =>
    ((await world.api.operation(InstanceGroups, { id: instance.id, groupId: '1@g.us', withGroup: false }, { key })).body.data!.instance!.groups ?? []).map((g) => g.id);

  it('creates, reads, changes, manages participants with a result per phone, gives the invite code and leaves', async () => {
    const ana = newNetworkPhone().slice(1);
    const bea = newNetworkPhone().slice(1);
    const created = (await world.api.operation(CreateGroup, { input: { instanceId: instance.id, subject: 'Orders', participants: [ana], description: 'weekly orders' } }, { key })).body.data!.createGroup;
    expect(created.userErrors).toEqual([]);
    const group = created.group!;
    expect(group).toMatchObject({ subject: 'Orders', description: 'weekly orders', owner: me(), announce: false, restrict: false });
    expect(group.participants).toEqual(expect.arrayContaining([{ phone: me(), admin: 'superadmin' }, { phone: ana, admin: null }]));
    expect(group.participants).toHaveLength(2);
    // The network has it as the API says.
    expect(world.network.group(group.id)).toMatchObject({ subject: 'Orders', description: 'weekly orders' });

    const read = await world.api.operation(InstanceGroups, { id: instance.id, groupId: group.id, withGroup: true }, { key });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data!.instance!.groups!.map((g) => g.id)).toContain(group.id);
    expect(read.body.data!.instance!.group).toMatchObject({ id: group.id, subject: 'Orders' });

    const changed = (await world.api.operation(UpdateGroup, { input: { instanceId: instance.id, groupId: group.id, subject: 'Orders B', announce: true } }, { key })).body.data!.updateGroup;
    expect(changed).toEqual({ group: { id: group.id, subject: 'Orders B', description: 'weekly orders', announce: true, restrict: false }, userErrors: [] });
    expect(world.network.group(group.id)).toMatchObject({ subject: 'Orders B', announce: true });

    const participants = async (action: 'add' | 'remove' | 'promote' | 'demote', phones: string[]) =>
      (await world.api.operation(ChangeGroupParticipants, { input: { instanceId: instance.id, groupId: group.id, action, phones } }, { key })).body.data!.changeGroupParticipants;
    expect(await participants('add', [bea, ana])).toEqual({ results: [{ phone: bea, status: 'ok' }, { phone: ana, status: 'already_member' }], userErrors: [] });
    expect((await participants('promote', [bea])).results).toEqual([{ phone: bea, status: 'ok' }]);
    expect(world.network.group(group.id).participants.find((p) => p.phone === bea)?.role).toBe('admin');
    expect((await participants('remove', [ana])).results).toEqual([{ phone: ana, status: 'ok' }]);
    expect(world.network.group(group.id).participants.map((p) => p.phone).sort()).toEqual([bea, me()].sort());

    const invite = (await world.api.operation(GroupInviteCode, { input: { instanceId: instance.id, groupId: group.id } }, { key })).body.data!.groupInviteCode;
    const code = world.network.group(group.id).inviteCode;
    expect(invite).toEqual({ invite: { code, url: `https://chat.whatsapp.com/${code}` }, userErrors: [] });

    const left = (await world.api.operation(LeaveGroup, { input: { instanceId: instance.id, groupId: group.id } }, { key })).body.data!.leaveGroup;
    expect(left).toEqual({ done: true, userErrors: [] });
    expect(world.network.group(group.id).participants.map((p) => p.phone)).not.toContain(me());
    expect(await groupsOnNetwork()).not.toContain(group.id);
  });

  it('a group message shows its group and sender on the record and to a messageReceived subscriber over WebSocket', async () => {
    const owner = newNetworkPhone().slice(1);
    const group = world.network.groupCreate(owner, 'Night shift', [me()]);
    const subscriber = wsClient(world.gw.url, { key });
    clients.push(subscriber);
    const events = subscribe(subscriber, RECEIVED, { instanceId: instance.id });
    // The subscription starts listening while the first messages may already be on their way: write until one arrives.
    let event = null;
    for (let attempt = 0; attempt < 20 && !event; attempt++) {
      await world.network.send(owner, group, { text: `Who closes tonight? ${attempt}` });
      event = await events.next(2000).catch(() => null);
    }
    await events.stop();
    expect(event, 'no messageReceived event').not.toBeNull();
    const received = event!.data!.messageReceived;
    expect(received.message).toMatchObject({ from: owner, group: { id: group, subject: 'Night shift' } });
    expect(received.message.text).toMatch(/^Who closes tonight\? \d+$/);

    const record = await world.api.operation(MessageGroupAndPoll, { id: received.messageId }, { key });
    expect(record.body.data!.message).toMatchObject({ id: received.messageId, from: owner, group: { id: group, subject: 'Night shift' }, poll: null });
  });

  it('refuses bad input as userErrors naming the field, and asks nothing of the network', async () => {
    const before = await groupsOnNetwork();
    const many = Array.from({ length: 257 }, (_, n) => String(5511900000000 + n));
    const create = async (subject: string, participants: string[]) =>
      (await world.api.operation(CreateGroup, { input: { instanceId: instance.id, subject, participants } }, { key })).body.data!.createGroup;
    for (const [subject, participants, field] of [
      ['x', [], 'participants'],
      ['x', many, 'participants'],
      ['', ['5511999990001'], 'subject'],
      ['   ', ['5511999990001'], 'subject'],
      ['x', ['abc'], 'participants'],
    ] as const) {
      const refused = await create(subject, [...participants]);
      expect(refused.group).toBeNull();
      expect(refused.userErrors.map((e) => [e.code, e.field?.[0]])).toEqual([['invalid_request', field]]);
    }

    const wrongIds = ['12345@s.whatsapp.net', 'abc@g.us', '123@g.us.evil'];
    for (const groupId of wrongIds) {
      const input = { instanceId: instance.id, groupId };
      const updated = (await world.api.operation(UpdateGroup, { input: { ...input, subject: 'x' } }, { key })).body.data!.updateGroup;
      expect(updated.userErrors).toEqual([{ code: 'invalid_request', field: ['groupId'], message: expect.stringContaining('group id') }]);
      const changed = (await world.api.operation(ChangeGroupParticipants, { input: { ...input, action: 'add', phones: ['5511999990001'] } }, { key })).body.data!.changeGroupParticipants;
      expect(changed).toEqual({ results: null, userErrors: [{ code: 'invalid_request', field: ['groupId'], message: expect.any(String) }] });
      expect((await world.api.operation(GroupInviteCode, { input }, { key })).body.data!.groupInviteCode.userErrors[0]).toMatchObject({ code: 'invalid_request', field: ['groupId'] });
      expect((await world.api.operation(LeaveGroup, { input }, { key })).body.data!.leaveGroup).toMatchObject({ done: false, userErrors: [{ code: 'invalid_request', field: ['groupId'] }] });
      const queried = await world.api.operation(InstanceGroups, { id: instance.id, groupId, withGroup: true }, { key });
      expect(queried.body.data!.instance!.group).toBeNull();
      expect(queried.body.errors?.[0]).toMatchObject({ path: ['instance', 'group'], extensions: { code: 'invalid_request' } });
      expect(queried.body.errors?.[0]?.message).toMatch(/^groupId: /);
    }

    const valid = '120363000000000001@g.us';
    const participants = async (phones: string[]) =>
      (await world.api.operation(ChangeGroupParticipants, { input: { instanceId: instance.id, groupId: valid, action: 'add', phones } }, { key })).body.data!.changeGroupParticipants;
    expect((await participants([])).userErrors.map((e) => e.field)).toEqual([['phones']]);
    expect((await participants(many)).userErrors.map((e) => e.field)).toEqual([['phones']]);
    const nothing = (await world.api.operation(UpdateGroup, { input: { instanceId: instance.id, groupId: valid, subject: '' } }, { key })).body.data!.updateGroup;
    expect(nothing.userErrors.map((e) => [e.code, e.field])).toEqual([['invalid_request', ['subject']]]);
    // An action the schema does not know is refused before anything runs.
    const unknownAction = await world.api.graphql(
      'mutation ($input: GroupParticipantsInput!) { changeGroupParticipants(input: $input) { results { phone } } }',
      { input: { instanceId: instance.id, groupId: valid, action: 'ban', phones: ['5511999990001'] } },
      { key },
    );
    expect(unknownAction.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
    expect(unknownAction.body.data).toBeUndefined();

    expect((await groupsOnNetwork()).sort()).toEqual(before.sort());
  });

  it("another tenant's instance and its groups are not found", async () => {
    const other = { key: world.tenants[1]!.liveKey };
    // The other tenant reads this tenant's instance: absent.
    const read = await world.api.operation(InstanceGroups, { id: instance.id, groupId: '120363000000000001@g.us', withGroup: true }, other);
    expect(read.body.data!.instance).toBeNull();
    expect(read.body.errors?.[0]?.extensions?.code).toBe('not_found');

    // This tenant manages through the other tenant's instance: not found, the same as an unknown one.
    const notFound = [{ code: 'not_found', field: null, message: 'Instance not found.' }];
    for (const instanceId of [theirs, '00000000-0000-4000-8000-000000000000']) {
      const group = { instanceId, groupId: '120363000000000001@g.us' };
      expect((await world.api.operation(CreateGroup, { input: { instanceId, subject: 'Mine now', participants: ['5511999990001'] } }, { key })).body.data!.createGroup).toEqual({ group: null, userErrors: notFound });
      expect((await world.api.operation(UpdateGroup, { input: { ...group, subject: 'Mine now' } }, { key })).body.data!.updateGroup.userErrors).toEqual(notFound);
      expect((await world.api.operation(ChangeGroupParticipants, { input: { ...group, action: 'add', phones: ['5511999990001'] } }, { key })).body.data!.changeGroupParticipants.userErrors).toEqual(notFound);
      expect((await world.api.operation(GroupInviteCode, { input: group }, { key })).body.data!.groupInviteCode.userErrors).toEqual(notFound);
      expect((await world.api.operation(LeaveGroup, { input: group }, { key })).body.data!.leaveGroup.userErrors).toEqual(notFound);
    }
  });
});
