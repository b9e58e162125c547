import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatNetwork, type ChatNetwork } from '../index.js';
import { pairByQr, trustNetwork, type TestClient } from '../control/test-client.js';
import { phoneNumbers } from './linked-device.js';

// Group management as a linked device (the real client's group functions) and phones do it.

let network: ChatNetwork;
let admin: TestClient;
let member: TestClient;
let adminPhone: string;
let memberPhone: string;
const newPhone = phoneNumbers('1555');
const jid = (number: string) => `${number}@s.whatsapp.net`;
const lid = (number: string) => `${network.lidOf(number)}@lid`;
const phonesOf = (group: string) => network.group(group).participants.map((participant) => participant.phone).sort();

beforeAll(async () => {
  network = await startChatNetwork();
  trustNetwork(network);
  adminPhone = newPhone();
  memberPhone = newPhone();
  admin = await pairByQr(network, adminPhone);
  member = await pairByQr(network, memberPhone);
});

afterAll(async () => {
  await admin?.end();
  await member?.end();
  await network?.close();
});

describe('group management from a linked device', () => {
  it('creates a group with those who can be added, and answers a result per phone for later adds', async () => {
    const friend = newPhone();
    const offNetwork = newPhone();
    const privateOne = newPhone();
    network.setRegistered(offNetwork, false);
    network.setAcceptsGroupAdds(privateOne, false);
    const created = await admin.sock.groupCreate('Team', [jid(friend), jid(offNetwork), jid(privateOne)]);
    expect(phonesOf(created.id)).toEqual([adminPhone, friend].sort());
    expect(created.participants.find((participant) => participant.id === lid(adminPhone))).toMatchObject({ admin: 'superadmin' });

    const newcomer = newPhone();
    const results = await admin.sock.groupParticipantsUpdate(created.id, [jid(newcomer), jid(friend), jid(offNetwork), jid(privateOne)], 'add');
    expect(results.map(({ jid: who, status }) => [who, status])).toEqual([
      [lid(newcomer), '200'],
      [lid(friend), '409'],
      [lid(offNetwork), '404'],
      [lid(privateOne), '403'],
    ]);
    expect(network.group(created.id).participants.map((participant) => participant.phone)).toContain(newcomer);
    const removed = await admin.sock.groupParticipantsUpdate(created.id, [jid(friend), jid(offNetwork)], 'remove');
    expect(removed.map(({ status }) => status)).toEqual(['200', '404']);
    expect(phonesOf(created.id)).toEqual([adminPhone, newcomer].sort());
  });

  it('promotes and demotes; members’ devices hear each change and the metadata shows it', async () => {
    const group = (await admin.sock.groupCreate('Roles', [jid(memberPhone)])).id;
    await member.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));
    const [promoted] = await admin.sock.groupParticipantsUpdate(group, [jid(memberPhone)], 'promote');
    expect(promoted).toMatchObject({ status: '200' });
    const event = await member.waitFor('group-participants.update', (update) => update.id === group && update.action === 'promote');
    expect(event.participants.map((participant) => participant.id)).toEqual([lid(memberPhone)]);
    expect(network.group(group).participants.find((participant) => participant.phone === memberPhone)?.role).toBe('admin');
    expect((await member.sock.groupMetadata(group)).participants.find((participant) => participant.id === lid(memberPhone))?.admin).toBe('admin');
    await admin.sock.groupParticipantsUpdate(group, [jid(memberPhone)], 'demote');
    await member.waitFor('group-participants.update', (update) => update.id === group && update.action === 'demote');
    expect(network.group(group).participants.find((participant) => participant.phone === memberPhone)?.role).toBeNull();
  });

  it('changes settings; a member who is not an admin may not manage, nor edit a locked group', async () => {
    const group = (await admin.sock.groupCreate('Rules', [jid(memberPhone)])).id;
    await member.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));
    await admin.sock.groupSettingUpdate(group, 'announcement');
    await admin.sock.groupSettingUpdate(group, 'locked');
    await member.waitFor('groups.update', (updates) => updates.some((update) => update.id === group && update.announce === true));
    await member.waitFor('groups.update', (updates) => updates.some((update) => update.id === group && update.restrict === true));
    expect(network.group(group)).toMatchObject({ announce: true, restrict: true });
    expect(await member.sock.groupMetadata(group)).toMatchObject({ announce: true, restrict: true });

    await expect(member.sock.groupParticipantsUpdate(group, [jid(newPhone())], 'add')).rejects.toMatchObject({ message: 'not-authorized', data: 401 });
    await expect(member.sock.groupUpdateSubject(group, 'Mine')).rejects.toMatchObject({ message: 'not-authorized', data: 401 });
    await expect(member.sock.groupSettingUpdate(group, 'unlocked')).rejects.toMatchObject({ message: 'not-authorized', data: 401 });
    await expect(member.sock.groupInviteCode(group)).rejects.toMatchObject({ message: 'not-authorized', data: 401 });
    await admin.sock.groupSettingUpdate(group, 'unlocked');
    await member.sock.groupUpdateSubject(group, 'Ours');
    await member.sock.groupUpdateDescription(group, 'About');
    expect(network.group(group)).toMatchObject({ subject: 'Ours', description: 'About', restrict: false, announce: true });
    await member.sock.groupUpdateDescription(group, undefined);
    expect(network.group(group).description).toBeNull();
  });

  it('gives and replaces the invite code; phones and devices join by it; a device leaves', async () => {
    const group = (await admin.sock.groupCreate('Open', [])).id;
    const code = await admin.sock.groupInviteCode(group);
    expect(code).toBe(network.group(group).inviteCode);
    const replaced = await admin.sock.groupRevokeInvite(group);
    expect(replaced).not.toBe(code);
    expect(() => network.groupJoin(newPhone(), code!)).toThrow(expect.objectContaining({ status: 404 }));

    const joiner = newPhone();
    network.groupJoin(joiner, replaced!);
    const joined = await admin.waitFor('group-participants.update', (update) => update.id === group && update.action === 'add');
    expect(joined.participants.map((participant) => participant.id)).toEqual([lid(joiner)]);
    expect(await member.sock.groupGetInviteInfo(replaced!)).toMatchObject({ id: group, subject: 'Open' });
    expect(await member.sock.groupAcceptInvite(replaced!)).toBe(group);
    expect(phonesOf(group)).toEqual([adminPhone, joiner, memberPhone].sort());

    await member.sock.groupLeave(group);
    expect(phonesOf(group)).toEqual([adminPhone, joiner].sort());
    const left = await admin.waitFor('group-participants.update', (update) => update.id === group && update.action === 'remove');
    expect(left.participants.map((participant) => participant.id)).toEqual([lid(memberPhone)]);
    await expect(member.sock.groupMetadata(group)).rejects.toMatchObject({ data: 403 });
  });
});

describe('group management by phones', () => {
  it('an admin phone promotes the device’s number, locks the group and replaces the code; the device hears each', async () => {
    const owner = newPhone();
    const group = network.groupCreate(owner, 'Phones', [adminPhone]);
    await admin.waitFor('groups.upsert', (groups) => groups.some((item) => item.id === group));
    expect(network.groupParticipants(owner, group, 'promote', [adminPhone, newPhone()])).toEqual([
      { phone: adminPhone, status: '200' },
      { phone: expect.any(String), status: '404' },
    ]);
    await admin.waitFor('group-participants.update', (update) => update.id === group && update.action === 'promote');
    network.groupSetSettings(owner, group, { restrict: true });
    await admin.waitFor('groups.update', (updates) => updates.some((update) => update.id === group && update.restrict === true));
    const code = network.groupRevokeInvite(owner, group);
    expect(await admin.sock.groupInviteCode(group)).toBe(code);
    expect(() => network.groupSetSettings(newPhone(), group, { announce: true })).toThrow(expect.objectContaining({ status: 400 }));
    const plain = newPhone();
    network.groupJoin(plain, code);
    expect(() => network.groupParticipants(plain, group, 'remove', [owner])).toThrow(expect.objectContaining({ status: 403, code: 'not_an_admin' }));
    network.groupLeave(owner, group);
    // The last admin left: the network made another member admin.
    expect(network.group(group).participants.filter((participant) => participant.role)).toHaveLength(1);
  });
});
