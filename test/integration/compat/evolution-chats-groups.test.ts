import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { PNG_1PX } from '../../kit/files.js';
import { MODES } from '../../kit/modes.js';
import { evolution, evolutionInstance, evolutionWorld, expectEvolutionError } from './evolution-kit.js';

describe.each(MODES)("Evolution API's chat and group operations, answered by the sandbox network — $name", (mode) => {
  const world = evolutionWorld(mode);
  let instance: Awaited<ReturnType<typeof evolutionInstance>>;
  const evo = () => evolution(world);
  const path = (operation: string, query = '') => `${operation}/${instance.name}${query}`;
  const fromPhone = async (phone: string, body: Record<string, unknown>) => {
    const answer = await world.api.post('/sandbox/messages', { body: { from: phone, to: instance.phone, ...body } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.messageId as string;
  };
  const sendText = async (number: string, text: string) => {
    const answer = await evo().post(path('/message/sendText'), { number, text });
    expect(answer.status, answer.text).toBe(201);
    return answer.body.key.id as string;
  };

  beforeAll(async () => {
    instance = await evolutionInstance(world, `evo-chat-${Date.now()}`);
  }, 60_000);

  it('whatsappNumbers, markMessageAsRead, sendPresence and updateBlockStatus reach the network', async () => {
    const peer = newPhone();
    const digits = peer.slice(1);
    const question = await fromPhone(peer, { text: 'Anyone there?' });
    // A phone the instance wrote to is known on the sandbox network; one nothing reached is not.
    await sendText(digits, 'Yes?');
    const stranger = newPhone().slice(1);
    const numbers = await evo().post(path('/chat/whatsappNumbers'), { numbers: [`+${digits}`, `${instance.digits}@s.whatsapp.net`, stranger] });
    expect(numbers.status, numbers.text).toBe(200);
    expect(numbers.body).toEqual([
      { exists: true, jid: `${digits}@s.whatsapp.net`, number: digits },
      { exists: true, jid: `${instance.digits}@s.whatsapp.net`, number: instance.digits },
      { exists: false, jid: `${stranger}@s.whatsapp.net`, number: stranger },
    ]);

    const read = await evo().post(path('/chat/markMessageAsRead'), { readMessages: [{ remoteJid: `${digits}@s.whatsapp.net`, fromMe: false, id: question }] });
    expect(read.status, read.text).toBe(201);
    expect(read.body).toEqual({ message: 'Read messages', read: 'success' });
    expect((await world.api.get(`/sandbox/phones/${digits}/reads`)).body.data).toEqual([{ messageId: question, from: instance.digits, at: expect.any(String) }]);

    const presence = await evo().post(path('/chat/sendPresence'), { number: digits, delay: 1200, presence: 'composing' });
    expect(presence.status, presence.text).toBe(201);
    expect(presence.body).toEqual({ presence: 'composing' });
    expect((await world.api.get(`/sandbox/phones/${digits}/presence`)).body.data.map((p: any) => [p.from, p.state])).toEqual([[instance.digits, 'composing']]);

    const blocked = await evo().post(path('/chat/updateBlockStatus'), { number: digits, status: 'block' });
    expect(blocked.status, blocked.text).toBe(201);
    expect(blocked.body).toEqual({ accepted: true });
    expect((await world.api.get(`/sandbox/phones/${instance.digits}/blocks`)).body.data).toEqual([{ phone: digits, blocked: true, at: expect.any(String) }]);
    expectEvolutionError(await evo().post(path('/chat/updateBlockStatus'), { number: digits, status: 'maybe' }), 400, 'Bad Request', /^status: must be block or unblock/);
    expectEvolutionError(await evo().post(path('/chat/sendPresence'), { number: digits, presence: 'dancing' }), 400, 'Bad Request', /^presence: must be one of/);
    expectEvolutionError(await evo().post(path('/chat/whatsappNumbers'), { numbers: 'all' }), 400, 'Bad Request', /^numbers: /);
  });

  it('updateMessage edits and deleteMessageForEveryone deletes on the phone; archiveChat and markChatUnread reach it', async () => {
    const peer = newPhone();
    const digits = peer.slice(1);
    const jid = `${digits}@s.whatsapp.net`;
    const first = await sendText(digits, 'Meet at 5');
    const second = await sendText(digits, 'Bring the keys');
    await eventually(() => phoneInbox(world.api, peer), (r) => r.body.data.length >= 2);
    const edited = await evo().post(path('/chat/updateMessage'), { number: digits, key: { remoteJid: jid, fromMe: true, id: first }, text: 'Meet at 6' });
    expect(edited.status, edited.text).toBe(201);
    expect(edited.body).toMatchObject({ key: { remoteJid: jid, fromMe: true, id: first }, messageType: 'conversation', message: { conversation: 'Meet at 6' } });
    const deleted = await evo().delete(path('/chat/deleteMessageForEveryone'), { id: second, remoteJid: jid, fromMe: true });
    expect(deleted.status, deleted.text).toBe(201);
    expect(deleted.body).toMatchObject({ key: { remoteJid: jid, fromMe: true, id: second }, messageType: 'protocolMessage', message: { protocolMessage: { type: 'REVOKE' } } });
    const list = await eventually(() => phoneInbox(world.api, peer), (r) => r.body.data.some((m: any) => m.edited) && r.body.data.some((m: any) => m.deleted));
    const byId = new Map(list.body.data.map((m: any) => [m.id, m]));
    expect(byId.get(first)).toMatchObject({ text: 'Meet at 5', edited: { text: 'Meet at 6' } });
    expect(byId.get(second)).toMatchObject({ deleted: { at: expect.any(String) } });

    const archived = await evo().post(path('/chat/archiveChat'), { lastMessage: { key: { remoteJid: jid, fromMe: true, id: first } }, archive: true });
    expect(archived.status, archived.text).toBe(201);
    expect(archived.body).toEqual({ chatId: jid, archived: true });
    const unread = await evo().post(path('/chat/markChatUnread'), { chat: jid });
    expect(unread.status, unread.text).toBe(201);
    expect(unread.body).toEqual({ chatId: jid, markedChatUnread: true });
    const states = await eventually(() => world.api.get(`/sandbox/phones/${instance.digits}/chat-states`), (r) => r.body.data.length >= 2);
    expect(states.body.data.map((s: any) => [s.chat, s.change])).toEqual([[digits, { archived: true }], [digits, { unread: true }]]);
    expectEvolutionError(await evo().post(path('/chat/archiveChat'), { chat: jid }), 400, 'Bad Request', /^archive: must be true or false/);
    expectEvolutionError(await evo().post(path('/chat/updateMessage'), { number: digits, text: 'x' }), 400, 'Bad Request', /^key\.id: is required/);
  });

  it('findChats, findContacts, findMessages, fetchProfilePictureUrl and getBase64FromMediaMessage answer from what the instance holds', async () => {
    const peer = newPhone();
    const digits = peer.slice(1);
    const jid = `${digits}@s.whatsapp.net`;
    const hello = await fromPhone(peer, { text: 'Hello from Ana', pushName: 'Ana' });
    const picture = await fromPhone(peer, { type: 'image', media: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' }, caption: 'A dot' });
    const reply = await sendText(digits, 'Hi Ana');

    const messages = await eventually(() => evo().post(path('/chat/findMessages'), { where: { key: { remoteJid: jid } } }), (r) => r.body?.messages?.records?.length >= 3);
    expect(messages.status, messages.text).toBe(200);
    expect(messages.body.messages).toMatchObject({ total: 3, currentPage: 1 });
    const records = new Map(messages.body.messages.records.map((record: any) => [record.key.id, record]));
    expect(records.get(hello)).toMatchObject({ key: { remoteJid: jid, fromMe: false, id: hello }, messageType: 'conversation', message: { conversation: 'Hello from Ana' } });
    expect(records.get(picture)).toMatchObject({ key: { remoteJid: jid, fromMe: false, id: picture }, messageType: 'imageMessage', message: { imageMessage: { caption: 'A dot', mimetype: 'image/png' } } });
    expect(records.get(reply)).toMatchObject({ key: { remoteJid: jid, fromMe: true, id: reply }, message: { conversation: 'Hi Ana' } });

    const chats = await evo().post(path('/chat/findChats'), {});
    expect(chats.status, chats.text).toBe(200);
    expect(chats.body.find((chat: any) => chat.remoteJid === jid)).toMatchObject({ id: digits, remoteJid: jid, unreadCount: expect.any(Number) });
    const contacts = await evo().post(path('/chat/findContacts'), { where: { id: jid } });
    expect(contacts.status, contacts.text).toBe(200);
    expect(contacts.body).toEqual([expect.objectContaining({ id: digits, remoteJid: jid, pushName: 'Ana' })]);
    expect((await evo().post(path('/chat/findContacts'), {})).body.some((contact: any) => contact.remoteJid === jid)).toBe(true);

    const pictureUrl = await evo().post(path('/chat/fetchProfilePictureUrl'), { number: digits });
    expect(pictureUrl.status, pictureUrl.text).toBe(200);
    // The sandbox makes a profile up from the number: the picture is the one the gateway's contact shows.
    const contact = await world.api.get(`/v1/chat/instances/${instance.id}/contacts/${digits}`, { key: world.tenant.liveKey });
    expect(pictureUrl.body).toEqual({ wuid: jid, profilePictureUrl: contact.body.data.picture?.url ?? null });
    const stranger = newPhone().slice(1);
    expect((await evo().post(path('/chat/fetchProfilePictureUrl'), { number: stranger })).body).toEqual({ wuid: `${stranger}@s.whatsapp.net`, profilePictureUrl: null });

    const media = await evo().post(path('/chat/getBase64FromMediaMessage'), { message: { key: { id: picture } }, convertToMp4: false });
    expect(media.status, media.text).toBe(201);
    expect(media.body).toMatchObject({ mediaType: 'image', mimetype: 'image/png', base64: PNG_1PX.toString('base64'), size: { fileLength: PNG_1PX.length } });
    expectEvolutionError(await evo().post(path('/chat/findMessages'), { where: {} }), 400, 'Bad Request', /^where\.key\.remoteJid: /);
  });

  it('creates a group with participants, changes its subject, description and settings, manages participants, gives its invite and leaves it', async () => {
    const ana = newPhone();
    const bea = newPhone();
    const created = await evo().post(path('/group/create'), { subject: 'Suppliers', description: 'weekly', participants: [ana.slice(1), `${bea.slice(1)}@s.whatsapp.net`] });
    expect(created.status, created.text).toBe(201);
    const group = created.body;
    expect(group).toMatchObject({
      id: expect.stringMatching(/@g\.us$/),
      subject: 'Suppliers',
      owner: `${instance.digits}@s.whatsapp.net`,
      desc: 'weekly',
      size: 3,
      restrict: false,
      announce: false,
      participants: [
        { id: `${instance.digits}@s.whatsapp.net`, admin: 'superadmin' },
        { id: `${ana.slice(1)}@s.whatsapp.net`, admin: null },
        { id: `${bea.slice(1)}@s.whatsapp.net`, admin: null },
      ],
    });
    const q = `?groupJid=${encodeURIComponent(group.id)}`;
    // A send to the group reaches each participant's phone with the group.
    expect((await evo().post(path('/message/sendText'), { number: group.id, text: 'Friday it is' })).status).toBe(201);
    const list = (await eventually(() => phoneInbox(world.api, ana), (r) => r.body.data.length >= 1)).body.data;
    expect(list[0]).toMatchObject({ text: 'Friday it is', group: { id: group.id, subject: 'Suppliers' } });

    expect((await evo().post(path('/group/updateGroupSubject', q), { subject: 'Suppliers 2026' })).body).toEqual({ update: 'success' });
    expect((await evo().post(path('/group/updateGroupDescription', q), { description: 'monthly' })).body).toEqual({ update: 'success' });
    const setting = await evo().post(path('/group/updateSetting', q), { action: 'announcement' });
    expect(setting.status, setting.text).toBe(201);
    expect(setting.body).toEqual({ updateSetting: true });
    const info = await evo().get(path('/group/findGroupInfos', q));
    expect(info.status, info.text).toBe(200);
    expect(info.body).toMatchObject({ id: group.id, subject: 'Suppliers 2026', desc: 'monthly', announce: true });

    const promoted = await evo().post(path('/group/updateParticipant', q), { action: 'promote', participants: [ana.slice(1)] });
    expect(promoted.status, promoted.text).toBe(201);
    expect(promoted.body).toEqual({ updateParticipants: [{ status: '200', jid: `${ana.slice(1)}@s.whatsapp.net` }] });
    const participants = await evo().get(path('/group/participants', q));
    expect(participants.body.participants).toContainEqual({ id: `${ana.slice(1)}@s.whatsapp.net`, admin: 'admin' });

    const invite = await evo().get(path('/group/inviteCode', q));
    expect(invite.status, invite.text).toBe(200);
    expect(invite.body).toEqual({ inviteUrl: expect.stringContaining(invite.body.inviteCode), inviteCode: expect.any(String) });
    const all = await evo().get(path('/group/fetchAllGroups', '?getParticipants=false'));
    expect(all.status, all.text).toBe(200);
    expect(all.body.find((entry: any) => entry.id === group.id)).not.toHaveProperty('participants');

    const left = await evo().delete(path('/group/leaveGroup', q));
    expect(left.status, left.text).toBe(200);
    expect(left.body).toEqual({ groupJid: group.id, leave: true });

    expectEvolutionError(await evo().get(path('/group/findGroupInfos')), 400, 'Bad Request', /^groupJid: is required/);
    expectEvolutionError(await evo().get(path('/group/fetchAllGroups')), 400, 'Bad Request', /^getParticipants: /);
    expectEvolutionError(await evo().post(path('/group/updateSetting', q), { action: 'sideways' }), 400, 'Bad Request', /^action: must be one of/);
    expectEvolutionError(await evo().post(path('/group/create'), { subject: '', participants: [ana.slice(1)] }), 400, 'Bad Request', /^subject: /);
  });
});
