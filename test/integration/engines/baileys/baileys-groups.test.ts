import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedSession, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';

describe.each(MODES)('CHAT-BAILEYS: messages to and from groups, through sender keys — $name', (mode) => {
  const world = baileysWorld(mode);
  let v1: { id: string; phone: string; secret: string };
  let session: { id: string; phone: string; secret: string };
  let key: string;

  beforeAll(async () => {
    key = world.tenant.liveKey;
    v1 = await pairedV1(world.api, key, world.network, `groups v1 ${Date.now()}`);
    const hooked = await world.api.post(`/v1/chat/instances/${v1.id}/webhook`, { key, body: { url: `${world.receiver.url}/groups-v1` } });
    expect(hooked.status, hooked.text).toBe(200);
    session = await pairedSession(world.api, world.tenant.cookie, world.network, `groups session ${Date.now()}`, undefined, { webhookUrl: `${world.receiver.url}/groups-session` });
  }, 90_000);

  const v1Data = (event: string) =>
    world.receiver
      .of(event)
      .filter((call) => JSON.parse(call.body).instanceId === v1.id)
      .map((call) => ({ data: JSON.parse(call.body).data, call }));
  const sessionData = (event: string) =>
    world.receiver
      .of(event)
      .filter((call) => JSON.parse(call.body).instance?.instanceId === session.id)
      .map((call) => JSON.parse(call.body).data);

  it('a send to a group reaches every participant phone, decrypted with the sender key', async () => {
    const owner = newNetworkPhone().slice(1);
    const member = newNetworkPhone().slice(1);
    const group = world.network.groupCreate(owner, 'Suppliers', [member, v1.phone]);
    const sent = await world.api.post(`/v1/chat/instances/${v1.id}/messages`, { key, body: { to: group, text: 'Deliveries move to Friday' } });
    expect(sent.status, sent.text).toBe(200);
    const status = await eventually(
      () => world.api.get(`/v1/messages/status/${sent.body.data.id}`, { key }),
      (r) => Boolean(r.body.data?.networkMessageId),
      20_000,
    );
    const networkId = status.body.data.networkMessageId as string;
    for (const phone of [owner, member]) {
      const entry = await world.network.waitFor(() => world.network.inbox(phone).find((m) => m.id === networkId), 20_000, `the group message on ${phone}`);
      expect(entry).toMatchObject({ type: 'text', chat: group, from: v1.phone.slice(1), text: 'Deliveries move to Friday' });
    }

    // A reply inside the group names the participant whose message it quotes.
    const theirs = await world.network.send(member, group, { text: 'Friday works' });
    const upsert = await eventually(async () => v1Data('messages.upsert').find(({ data }) => data.text === 'Friday works'), Boolean, 20_000);
    const reply = await world.api.post(`/v1/chat/instances/${v1.id}/messages`, {
      key,
      body: { to: group, text: 'Thanks', quotedMessageId: upsert!.data.messageId },
    });
    expect(reply.status, reply.text).toBe(200);
    const replyStatus = await eventually(() => world.api.get(`/v1/messages/status/${reply.body.data.id}`, { key }), (r) => Boolean(r.body.data?.networkMessageId), 20_000);
    const onOwner = await world.network.waitFor(
      () => world.network.inbox(owner).find((m) => m.id === replyStatus.body.data.networkMessageId),
      20_000,
      'the reply on the owner phone',
    );
    expect(onOwner).toMatchObject({ chat: group, text: 'Thanks', quoted: { messageId: theirs, participant: `${member}@s.whatsapp.net` } });
  });

  it("a participant's message arrives with its group and the participant's phone; the session envelope keys it by group and participant", async () => {
    const owner = newNetworkPhone().slice(1);
    const group = world.network.groupCreate(owner, 'Night shift', [v1.phone, session.phone]);
    const id = await world.network.send(owner, group, { text: 'Who closes tonight?' });
    const found = await eventually(async () => v1Data('messages.upsert').find(({ data }) => data.text === 'Who closes tonight?'), Boolean, 20_000);
    expect(found!.data).toMatchObject({
      from: owner,
      to: v1.phone.slice(1),
      type: 'text',
      text: 'Who closes tonight?',
      group: { id: group, subject: 'Night shift' },
    });
    expect(await verifyHubSignature(v1.secret, found!.call.body, String(found!.call.headers['x-hub-signature-256']))).toBe(true);
    const record = await world.api.get(`/v1/messages/status/${found!.data.messageId}`, { key });
    expect(record.status, record.text).toBe(200);

    const envelope = await eventually(async () => sessionData('messages.upsert').find((data) => data.message?.conversation === 'Who closes tonight?'), Boolean, 20_000) as Record<string, any>;
    expect(envelope.key).toEqual({ remoteJid: group, fromMe: false, id: expect.any(String), participant: `${owner}@s.whatsapp.net` });
    expect(envelope.message.group).toEqual({ id: group, subject: 'Night shift' });
    expect(id).toBeTruthy();

    // A renamed group's next message carries the new subject (learned from the network's update).
    world.network.groupSetSubject(owner, group, 'Night shift B');
    await eventually(async () => sessionData('groups.update'), (list) => list.some((change) => change.subject === 'Night shift B'), 20_000);
    await world.network.send(owner, group, { text: 'Renamed' });
    const renamed = await eventually(async () => v1Data('messages.upsert').find(({ data }) => data.text === 'Renamed'), Boolean, 20_000);
    expect(renamed!.data.group).toEqual({ id: group, subject: 'Night shift B' });
  });

  it('manages a group through the API: create, read, change, participants with a result each, invite code, leave', async () => {
    const ana = newNetworkPhone().slice(1);
    const bea = newNetworkPhone().slice(1);
    const base = `/v1/chat/instances/${v1.id}/groups`;
    const created = await world.api.post(base, { key, body: { subject: 'Orders', participants: [ana], description: 'weekly orders' } });
    expect(created.status, created.text).toBe(201);
    const group = created.body.data;
    expect(group).toMatchObject({ subject: 'Orders', description: 'weekly orders', owner: v1.phone.slice(1), announce: false, restrict: false });
    expect(group.participants).toEqual(expect.arrayContaining([{ phone: v1.phone.slice(1), admin: 'superadmin' }, { phone: ana, admin: null }]));
    expect(group.participants).toHaveLength(2);
    expect(world.network.group(group.id)).toMatchObject({ subject: 'Orders', description: 'weekly orders' });

    const listed = await world.api.get(base, { key });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((g: { id: string }) => g.id)).toContain(group.id);

    const changed = await world.api.request('PATCH', `${base}/${group.id}`, { key, body: { subject: 'Orders B', announce: true } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toMatchObject({ subject: 'Orders B', announce: true });
    expect(world.network.group(group.id)).toMatchObject({ subject: 'Orders B', announce: true });

    const participants = (action: string, phones: string[]) => world.api.post(`${base}/${group.id}/participants`, { key, body: { action, phones } });
    const added = await participants('add', [bea, ana]);
    expect(added.status, added.text).toBe(200);
    expect(added.body.data).toEqual([{ phone: bea, status: 'ok' }, { phone: ana, status: 'already_member' }]);
    expect((await participants('promote', [bea])).body.data).toEqual([{ phone: bea, status: 'ok' }]);
    expect(world.network.group(group.id).participants.find((p) => p.phone === bea)?.role).toBe('admin');
    expect((await participants('demote', [bea])).body.data).toEqual([{ phone: bea, status: 'ok' }]);
    expect((await participants('remove', [ana])).body.data).toEqual([{ phone: ana, status: 'ok' }]);
    expect(world.network.group(group.id).participants.map((p) => p.phone).sort()).toEqual([bea, v1.phone.slice(1)].sort());
    const read = await world.api.get(`${base}/${group.id}`, { key });
    expect(read.body.data.participants).toEqual(expect.arrayContaining([{ phone: bea, admin: null }]));
    expect(read.body.data.participants).toHaveLength(2);

    const invite = await world.api.get(`${base}/${group.id}/invite`, { key });
    expect(invite.status, invite.text).toBe(200);
    expect(invite.body.data).toEqual({ code: world.network.group(group.id).inviteCode, url: `https://chat.whatsapp.com/${world.network.group(group.id).inviteCode}` });

    const left = await world.api.post(`${base}/${group.id}/leave`, { key });
    expect(left.status, left.text).toBe(200);
    expect(world.network.group(group.id).participants.map((p) => p.phone)).not.toContain(v1.phone.slice(1));
  });

  it('the session variant manages groups with the cookie, and its changes come back as group events', async () => {
    const cookie = world.tenant.cookie;
    const ana = newNetworkPhone().slice(1);
    const base = `/chat/instances/${session.id}/groups`;
    const created = await world.api.post(base, { cookie, body: { subject: 'Support team', participants: [ana] } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    await eventually(async () => sessionData('groups.upsert'), (list) => list.some((data) => data.groups?.some((g: { id: string }) => g.id === id)), 20_000);
    const renamed = await world.api.request('PATCH', `${base}/${id}`, { cookie, body: { subject: 'Support team B' } });
    expect(renamed.status, renamed.text).toBe(200);
    const update = await eventually(async () => sessionData('groups.update').find((data) => data.id === id && data.subject === 'Support team B'), Boolean, 20_000);
    expect(update).toEqual({ id, author: { phone: session.phone.slice(1) }, subject: 'Support team B' });
    const listed = await world.api.get(base, { cookie });
    expect(listed.body.data.find((g: { id: string }) => g.id === id)).toMatchObject({ subject: 'Support team B' });
    // The API key is the v1 paths' credential, the cookie the session ones'.
    expect((await world.api.get(base, { key })).status).toBe(401);
  });

  for (const variant of ['v1', 'session'] as const) {
    it(`refuses bad input on every group path with 400 naming the field, and asks nothing of the network (${variant})`, async () => {
      const id = variant === 'v1' ? v1.id : session.id;
      const auth = variant === 'v1' ? { key } : { cookie: world.tenant.cookie };
      const base = `${variant === 'v1' ? '/v1' : ''}/chat/instances/${id}`;
      const groupsNow = async () => ((await world.api.get(`${base}/groups`, auth)).body.data as Array<{ id: string; subject: string; participants: unknown[] }>).map((g) => JSON.stringify(g)).sort();
      const messagesNow = async () => (await world.api.get('/v1/messages/list?limit=1', { key })).body.pagination.total as number;
      const [groupsBefore, messagesBefore] = [await groupsNow(), await messagesNow()];
      const refused = async (method: string, path: string, body: unknown, field: string) => {
        const answer = await world.api.request(method, `${base}${path}`, { ...auth, body });
        expect(answer.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}: ${answer.text}`).toBe(400);
        expect(answer.body.error).toMatchObject({ code: 'invalid_request' });
        expect(answer.body.error.message, `${method} ${path}`).toMatch(new RegExp(`^${field}(\\.\\d+)?: `));
      };
      const many = Array.from({ length: 257 }, (_, n) => String(5511900000000 + n));
      const phone = newNetworkPhone().slice(1);
      const valid = '120363000000000001@g.us';

      await refused('POST', '/groups', { subject: 'x', participants: [] }, 'participants');
      await refused('POST', '/groups', { subject: 'x', participants: many }, 'participants');
      await refused('POST', '/groups', { subject: '', participants: [phone] }, 'subject');
      await refused('POST', '/groups', { subject: '   ', participants: [phone] }, 'subject');
      await refused('POST', '/groups', { participants: [phone] }, 'subject');
      await refused('POST', '/groups', { subject: 'x', participants: ['abc'] }, 'participants');
      await refused('POST', '/groups', { subject: 'x'.repeat(101), participants: [phone] }, 'subject');
      for (const wrong of ['12345@s.whatsapp.net', 'abc@g.us', '12-@g.us']) {
        const groupPath = `/groups/${encodeURIComponent(wrong)}`;
        await refused('GET', groupPath, undefined, 'groupId');
        await refused('PATCH', groupPath, { subject: 'x' }, 'groupId');
        await refused('POST', `${groupPath}/participants`, { action: 'add', phones: [phone] }, 'groupId');
        await refused('GET', `${groupPath}/invite`, undefined, 'groupId');
        await refused('POST', `${groupPath}/leave`, undefined, 'groupId');
      }
      await refused('PATCH', `/groups/${valid}`, { subject: '' }, 'subject');
      await refused('PATCH', `/groups/${valid}`, { announce: 'yes' }, 'announce');
      await refused('POST', `/groups/${valid}/participants`, { action: 'ban', phones: [phone] }, 'action');
      await refused('POST', `/groups/${valid}/participants`, { phones: [phone] }, 'action');
      await refused('POST', `/groups/${valid}/participants`, { action: 'add', phones: [] }, 'phones');
      await refused('POST', `/groups/${valid}/participants`, { action: 'add', phones: many }, 'phones');
      const noChange = await world.api.request('PATCH', `${base}/groups/${valid}`, { ...auth, body: {} });
      expect(noChange.status, noChange.text).toBe(400);
      expect(noChange.body.error.message).toMatch(/must change at least one of subject, description, announce, restrict/);
      // A poll of 13 options, through the same variant's send path.
      await refused('POST', '/messages', { to: phone, poll: { name: 'Too many', options: Array.from({ length: 13 }, (_, n) => `option ${n + 1}`) } }, 'poll\\.options');

      expect(await groupsNow()).toEqual(groupsBefore);
      expect(await messagesNow()).toBe(messagesBefore);
      expect(world.network.inbox(phone)).toEqual([]);
    });
  }

  it('refuses a group id of the wrong form, storing nothing', async () => {
    for (const to of ['123@g.us.evil', 'abc@g.us', '12-@g.us', '5511@s.whatsapp.net']) {
      const sent = await world.api.post(`/v1/chat/instances/${v1.id}/messages`, { key, body: { to, text: 'hi' } });
      expect(sent.status, `${to}: ${sent.text}`).toBe(400);
      expect(sent.body.error).toMatchObject({ code: 'invalid_request' });
      expect(sent.body.error.message).toMatch(/^to: /);
    }
  });
});
