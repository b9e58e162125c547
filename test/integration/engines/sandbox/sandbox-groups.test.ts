import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance, connectedV1Instance, eventually, newPhone, phoneInbox } from '../../../factories/sandbox.js';
import { startTestGateway } from '../../../kit/gateway.js';
import { client } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { sandboxWorld } from '../../../kit/worlds/sandbox.js';

const digitsOf = (phone: string) => phone.slice(1);

describe.each(MODES)('Sandbox: groups of its own and polls, through named instances — $name', (mode) => {
  // A gateway of its own: the poll test restarts it.
  const world = sandboxWorld(mode, { env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
  let v1: { id: string; phone: string; secret: string };
  let session: { id: string; phone: string; secret: string };
  let key: string;

  beforeAll(async () => {
    key = world.tenant.liveKey;
    v1 = await connectedV1Instance(world.api, key, `groups v1 ${Date.now()}`);
    await eventually(() => world.api.get(`/v1/chat/instances/${v1.id}`, { key }), (r) => r.body.data.status === 'connected');
    const hooked = await world.api.post(`/v1/chat/instances/${v1.id}/webhook`, { key, body: { url: `${world.receiver.url}/groups-v1` } });
    expect(hooked.status, hooked.text).toBe(200);
    const created = await connectedSessionInstance(world.api, world.tenant.cookie, `groups session ${Date.now()}`);
    await eventually(() => world.api.get(`/chat/instances/${created.id}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'connected');
    const set = await world.api.post(`/v1/chat/instances/${created.id}/webhook`, { key, body: { url: `${world.receiver.url}/groups-session` } });
    expect(set.status, set.text).toBe(200);
    const secret = await world.api.post(`/chat/instances/${created.id}/webhook/secret`, { cookie: world.tenant.cookie });
    session = { ...created, secret: secret.body.data.webhookSecret as string };
  }, 60_000);

  const v1Hooks = (event: string) => world.receiver.of(event).filter((call) => JSON.parse(call.body).instanceId === v1.id);
  const sessionHooks = (event: string) => world.receiver.of(event).filter((call) => JSON.parse(call.body).instance?.instanceId === session.id);
  // The session's secret was rotated above: the new one verifies webhook-signature (docs/webhooks.md).
  const signed = async (secret: string, call: { body: string; headers: Record<string, unknown> }) =>
    expect(() => new Webhook(secret.slice('whsec_'.length)).verify(call.body, call.headers as Record<string, string>)).not.toThrow();
  const prisma = () => world.gw.gateway.infra.db.prisma;
  const sentThrough = async (instanceId: string, body: unknown, cookie?: string) => {
    const answer = cookie
      ? await world.api.post(`/chat/instances/${instanceId}/messages`, { cookie, body })
      : await world.api.post(`/v1/chat/instances/${instanceId}/messages`, { key, body });
    expect(answer.status, answer.text).toBe(200);
    const id = answer.body.data.id as string;
    const status = await eventually(() => world.api.get(`/v1/messages/status/${id}`, { key }), (r) => ['sent', 'delivered', 'read', 'failed'].includes(r.body.data?.status));
    return { id, status: status.body.data };
  };

  it('a group created through the API shows its participants; a send to it reaches every participant phone with its group', async () => {
    const ana = newPhone();
    const bea = newPhone();
    const base = `/v1/chat/instances/${v1.id}/groups`;
    const created = await world.api.post(base, { key, body: { subject: 'Suppliers', participants: [digitsOf(ana), digitsOf(bea)], description: 'weekly' } });
    expect(created.status, created.text).toBe(201);
    const group = created.body.data;
    expect(group).toEqual({
      id: expect.stringMatching(/^120363\d{12}@g\.us$/),
      subject: 'Suppliers',
      description: 'weekly',
      owner: digitsOf(v1.phone),
      participants: [
        { phone: digitsOf(v1.phone), admin: 'superadmin' },
        { phone: digitsOf(ana), admin: null },
        { phone: digitsOf(bea), admin: null },
      ],
      announce: false,
      restrict: false,
      createdAt: expect.any(String),
    });
    const listed = await world.api.get(base, { key });
    expect(listed.body.data.map((g: { id: string }) => g.id)).toContain(group.id);
    expect((await world.api.get(`${base}/${group.id}`, { key })).body.data).toEqual(group);

    const { id, status } = await sentThrough(v1.id, { to: group.id, text: 'Deliveries move to Friday' });
    expect(status.status).not.toBe('failed');
    const poll = await sentThrough(v1.id, { to: group.id, poll: { name: 'Which day?', options: ['Thu', 'Fri'] } });
    for (const phone of [ana, bea]) {
      const list = (await eventually(() => phoneInbox(world.api, phone), (r) => r.body.data.length >= 2)).body.data;
      expect(list).toEqual([
        { id, from: digitsOf(v1.phone), type: 'text', text: 'Deliveries move to Friday', group: { id: group.id, subject: 'Suppliers' }, receivedAt: expect.any(String) },
        { id: poll.id, from: digitsOf(v1.phone), type: 'poll', text: null, poll: { name: 'Which day?', options: ['Thu', 'Fri'], selectableCount: 1 }, group: { id: group.id, subject: 'Suppliers' }, receivedAt: expect.any(String) },
      ]);
    }
    // The sender's own phone gets no copy of its message.
    expect((await phoneInbox(world.api, v1.phone)).body.data.filter((m: { id: string }) => m.id === id)).toEqual([]);

    // A group the number is not in: the network refuses the message (it fails), and no phone gets it.
    const stranger = await world.api.post(base.replace(v1.id, session.id).replace('/v1', ''), { cookie: world.tenant.cookie, body: { subject: 'Elsewhere', participants: [digitsOf(ana)] } });
    expect(stranger.status, stranger.text).toBe(201);
    const refused = await sentThrough(v1.id, { to: stranger.body.data.id, text: 'Not mine' });
    expect(refused.status).toMatchObject({ status: 'failed', error: { code: 'network_refused' } });
    expect((await phoneInbox(world.api, ana)).body.data.some((m: { text: string }) => m.text === 'Not mine')).toBe(false);
  });

  it("a participant's message arrives as messages.upsert with its group and the participant's phone, signed; the session envelope keys it by group and participant", async () => {
    const ana = newPhone();
    const created = await world.api.post(`/chat/instances/${session.id}/groups`, { cookie: world.tenant.cookie, body: { subject: 'Night shift', participants: [digitsOf(ana), digitsOf(v1.phone)] } });
    expect(created.status, created.text).toBe(201);
    const groupId = created.body.data.id as string;

    const wrote = await world.api.post('/sandbox/messages', { body: { from: ana, to: v1.phone, group: groupId, text: 'Who closes tonight?' } });
    expect(wrote.status, wrote.text).toBe(200);
    const messageId = wrote.body.data.messageId as string;
    const upsert = await eventually(async () => v1Hooks('messages.upsert').find((call) => JSON.parse(call.body).data.messageId === messageId), Boolean);
    expect(JSON.parse(upsert!.body).data).toMatchObject({ messageId, fromMe: false, from: digitsOf(ana), to: digitsOf(v1.phone), text: 'Who closes tonight?', group: { id: groupId, subject: 'Night shift' } });
    await signed(v1.secret, upsert!);
    expect(await prisma().message.findUnique({ where: { id: messageId } })).toMatchObject({ from: digitsOf(ana), group: { id: groupId, subject: 'Night shift' } });

    const toSession = await world.api.post('/sandbox/messages', { body: { from: digitsOf(ana), to: session.phone, group: groupId, text: 'Anyone?' } });
    expect(toSession.status, toSession.text).toBe(200);
    const envelope = await eventually(async () => sessionHooks('messages.upsert').find((call) => JSON.parse(call.body).data.message?.conversation === 'Anyone?'), Boolean);
    expect(JSON.parse(envelope!.body).data.key).toEqual({ remoteJid: groupId, fromMe: false, id: expect.any(String), participant: `${digitsOf(ana)}@sandbox.chat` });
    await signed(session.secret, envelope!);
  });

  it('add, remove, promote and demote each show in the group and raise groups.update; the invite code; leave', async () => {
    const cookie = world.tenant.cookie;
    const ana = digitsOf(newPhone());
    const bea = digitsOf(newPhone());
    const base = `/chat/instances/${session.id}/groups`;
    const created = await world.api.post(base, { cookie, body: { subject: 'Orders', participants: [ana] } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const upserted = await eventually(async () => sessionHooks('groups.upsert').filter((call) => JSON.parse(call.body).data.groups.some((g: { id: string }) => g.id === id)), (list) => list.length === 1);
    expect(JSON.parse(upserted[0]!.body).data.groups[0]).toEqual({
      id, subject: 'Orders', description: null, owner: { phone: digitsOf(session.phone) },
      participants: [{ phone: digitsOf(session.phone), admin: 'superadmin' }, { phone: ana, admin: null }], createdAt: expect.any(String),
    });
    await signed(session.secret, upserted[0]!);

    const updates = () => sessionHooks('groups.update').map((call) => JSON.parse(call.body).data).filter((data) => data.id === id);
    const author = { phone: digitsOf(session.phone) };
    const change = async (action: string, phones: string[], answer: unknown, members: string[], roles: Record<string, string | null>) => {
      const seen = updates().length;
      const changed = await world.api.post(`${base}/${id}/participants`, { cookie, body: { action, phones } });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.data).toEqual(answer);
      const update = await eventually(async () => updates(), (list) => list.length === seen + 1);
      expect(update[seen]).toEqual({ id, author, participants: { action, members: members.map((phone) => ({ phone })) } });
      const read = await world.api.get(`${base}/${id}`, { cookie });
      expect(Object.fromEntries(read.body.data.participants.map((p: { phone: string; admin: string | null }) => [p.phone, p.admin]))).toEqual(roles);
    };
    const me = digitsOf(session.phone);
    await change('add', [bea, ana], [{ phone: bea, status: 'ok' }, { phone: ana, status: 'already_member' }], [bea], { [me]: 'superadmin', [ana]: null, [bea]: null });
    await change('promote', [bea], [{ phone: bea, status: 'ok' }], [bea], { [me]: 'superadmin', [ana]: null, [bea]: 'admin' });
    await change('demote', [bea], [{ phone: bea, status: 'ok' }], [bea], { [me]: 'superadmin', [ana]: null, [bea]: null });
    await change('remove', [ana, '5511900000001'], [{ phone: ana, status: 'ok' }, { phone: '5511900000001', status: 'not_found' }], [ana], { [me]: 'superadmin', [bea]: null });
    // A removed phone gets no more of the group's messages.
    await sentThrough(session.id, { to: id, text: 'After the change' }, cookie);
    await eventually(() => phoneInbox(world.api, bea), (r) => r.body.data.some((m: { text: string }) => m.text === 'After the change'));
    expect((await phoneInbox(world.api, ana)).body.data.some((m: { text: string }) => m.text === 'After the change')).toBe(false);

    const renamed = await world.api.request('PATCH', `${base}/${id}`, { cookie, body: { subject: 'Orders B', announce: true } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ subject: 'Orders B', announce: true });
    expect((await eventually(async () => updates(), (list) => list.some((u) => u.subject === 'Orders B'))).find((u) => u.subject === 'Orders B')).toEqual({ id, author, subject: 'Orders B', announce: true });

    const invite = await world.api.get(`${base}/${id}/invite`, { cookie });
    expect(invite.status, invite.text).toBe(200);
    expect(invite.body.data).toEqual({ code: expect.stringMatching(/^[\w-]{22}$/), url: `https://chat.whatsapp.com/${invite.body.data.code}` });
    expect((await world.api.get(`${base}/${id}/invite`, { cookie })).body.data.code).toBe(invite.body.data.code);

    const seen = updates().length;
    const left = await world.api.post(`${base}/${id}/leave`, { cookie });
    expect(left.status, left.text).toBe(200);
    expect((await eventually(async () => updates(), (list) => list.length === seen + 1))[seen]).toEqual({ id, author, participants: { action: 'remove', members: [author] } });
    expect((await world.api.get(base, { cookie })).body.data.map((g: { id: string }) => g.id)).not.toContain(id);
    expect((await world.api.get(`${base}/${id}`, { cookie })).status).toBe(404);
    const row = await prisma().sandboxGroupMember.findMany({ where: { groupId: id }, orderBy: { seq: 'asc' } });
    expect(row.map((m) => m.phone)).toEqual([bea]);
  });

  it('a member that is no admin cannot change participants: 502 network_error, nothing changed', async () => {
    const created = await world.api.post(`/v1/chat/instances/${v1.id}/groups`, { key, body: { subject: 'Admins only', participants: [digitsOf(session.phone)] } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const refused = await world.api.post(`/chat/instances/${session.id}/groups/${id}/participants`, { cookie: world.tenant.cookie, body: { action: 'add', phones: [digitsOf(newPhone())] } });
    expect(refused.status, refused.text).toBe(502);
    expect(refused.body.error.code).toBe('network_error');
    expect((await world.api.get(`/v1/chat/instances/${v1.id}/groups/${id}`, { key })).body.data.participants).toHaveLength(2);
  });

  it('a poll sent to a phone: two votes and a changed vote give an exact, signed tally; a restart keeps it', async () => {
    const ana = newPhone();
    const bea = newPhone();
    const tally = (votes: Record<string, string[]>) => ({
      name: 'Lunch?',
      options: ['Pizza', 'Sushi', 'Salad'].map((name) => ({ name, votes: votes[name]?.length ?? 0, voters: votes[name] ?? [] })),
    });
    const { id } = await sentThrough(v1.id, { to: digitsOf(ana), poll: { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], selectableCount: 2 } });
    await sentThrough(v1.id, { to: digitsOf(bea), poll: { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], selectableCount: 2 } }).then(async (other) => {
      // Bea votes on her own copy: the tally of Ana's poll is not touched by it.
      const vote = await world.api.post('/sandbox/messages', { body: { from: bea, to: v1.phone, type: 'poll_vote', pollVote: { messageId: other.id, options: ['Salad'] } } });
      expect(vote.status, vote.text).toBe(200);
    });
    const onPhone = (await eventually(() => phoneInbox(world.api, ana), (r) => r.body.data.length === 1)).body.data[0];
    expect(onPhone).toEqual({ id, from: digitsOf(v1.phone), type: 'poll', text: null, poll: { name: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], selectableCount: 2 }, receivedAt: expect.any(String) });

    const updates = () => v1Hooks('messages.update').filter((call) => JSON.parse(call.body).data.messageId === id && JSON.parse(call.body).data.poll);
    const vote = async (options: string[], n: number, expected: unknown) => {
      const answer = await world.api.post('/sandbox/messages', { body: { from: digitsOf(ana), to: v1.phone, type: 'poll_vote', pollVote: { messageId: id, options } } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data).toEqual({ messageId: id, options });
      const calls = await eventually(async () => updates(), (list) => list.length >= n);
      expect(calls).toHaveLength(n);
      expect(JSON.parse(calls[n - 1]!.body).data).toEqual({ messageId: id, poll: expected });
      await signed(v1.secret, calls[n - 1]!);
    };
    const record = async () => (await world.api.get(`/v1/messages/status/${id}`, { key })).body.data.poll;
    await vote(['Pizza', 'Salad'], 1, tally({ Pizza: [digitsOf(ana)], Salad: [digitsOf(ana)] }));
    await vote(['Sushi'], 2, tally({ Sushi: [digitsOf(ana)] }));
    expect(await record()).toEqual({ ...tally({ Sushi: [digitsOf(ana)] }), selectableCount: 2 });

    const first = world.gw;
    await first.gateway.close();
    world.gw = await startTestGateway(mode, { env: { WEBHOOK_ALLOW_INSECURE: 'true' }, reuse: first });
    world.api = client(world.gw.url);
    expect(await record()).toEqual({ ...tally({ Sushi: [digitsOf(ana)] }), selectableCount: 2 });
    await eventually(() => world.api.get(`/v1/chat/instances/${v1.id}`, { key }), (r) => r.body.data.status === 'connected', 20_000);
    await vote(['Sushi', 'Pizza'], 3, tally({ Pizza: [digitsOf(ana)], Sushi: [digitsOf(ana)] }));
    expect(await record()).toEqual({ ...tally({ Pizza: [digitsOf(ana)], Sushi: [digitsOf(ana)] }), selectableCount: 2 });
  }, 90_000);

  it('refuses bad input on the sandbox controls with a 400 naming the field, storing nothing', async () => {
    const ana = newPhone();
    const outsider = newPhone();
    const created = await world.api.post(`/v1/chat/instances/${v1.id}/groups`, { key, body: { subject: 'Checks', participants: [digitsOf(ana)] } });
    const groupId = created.body.data.id as string;
    const text = await sentThrough(v1.id, { to: digitsOf(ana), text: 'not a poll' });
    const poll = await sentThrough(v1.id, { to: digitsOf(ana), poll: { name: 'Pick', options: ['A', 'B'] } });
    const stored = () => prisma().message.count({ where: { instanceId: v1.id } });
    const before = await stored();
    const votes = () => v1Hooks('messages.update').filter((call) => JSON.parse(call.body).data.poll).length;
    const updatesBefore = votes();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ from: ana, to: v1.phone, group: '120363999999999999@g.us', text: 'x' }, /^group: /],
      [{ from: ana, to: v1.phone, group: 'not-a-group', text: 'x' }, /^group: /],
      [{ from: outsider, to: v1.phone, group: groupId, text: 'x' }, /^from: .*participant/],
      [{ from: ana, to: session.phone, group: groupId, text: 'x' }, /^to: .*participant/],
      [{ from: ana, to: v1.phone, type: 'poll_vote', pollVote: { messageId: text.id, options: ['A'] } }, /^pollVote\.messageId: is not a poll/],
      [{ from: ana, to: v1.phone, type: 'poll_vote', pollVote: { messageId: poll.id, options: ['A', 'C'] } }, /^pollVote\.options\.1: /],
      [{ from: ana, to: v1.phone, type: 'poll_vote', pollVote: { messageId: poll.id, options: ['A', 'B'] } }, /^pollVote\.options: picks at most 1/],
      [{ from: outsider, to: v1.phone, type: 'poll_vote', pollVote: { messageId: poll.id, options: ['A'] } }, /^pollVote\.messageId: /],
      [{ from: ana, to: v1.phone, type: 'poll_vote' }, /^pollVote: /],
      [{ from: ana, to: v1.phone, text: 'x', pollVote: { messageId: poll.id, options: ['A'] } }, /^pollVote: /],
      [{ from: ana, to: v1.phone, type: 'poll_vote', group: groupId, pollVote: { messageId: poll.id, options: ['A'] } }, /^group: names a group, but that poll was sent to the phone directly/],
      [{ from: ana, to: v1.phone, type: 'edit', group: groupId, edit: { messageId: text.id, text: 'y' } }, /^group: is not for type edit/],
    ];
    for (const [body, field] of cases) {
      const refused = await world.api.post('/sandbox/messages', { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
      expect(refused.body.error.message).toMatch(field);
    }
    expect(await stored()).toBe(before);
    expect((await world.api.get(`/v1/messages/status/${poll.id}`, { key })).body.data.poll.options.every((o: { votes: number }) => o.votes === 0)).toBe(true);
    expect(votes()).toBe(updatesBefore);

    // A vote on a group's poll may name that group, as the message it answers did; another group is refused.
    const groupPoll = await sentThrough(v1.id, { to: groupId, poll: { name: 'Where?', options: ['Here', 'There'] } });
    await eventually(() => phoneInbox(world.api, ana), (r) => r.body.data.some((m: { id: string }) => m.id === groupPoll.id));
    const elsewhere = await world.api.post('/sandbox/messages', { body: { from: ana, to: v1.phone, type: 'poll_vote', group: '120363999999999999@g.us', pollVote: { messageId: groupPoll.id, options: ['Here'] } } });
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(elsewhere.body.error.message).toMatch(/^group: is not the group that poll was sent to/);
    const named = await world.api.post('/sandbox/messages', { body: { from: ana, to: v1.phone, type: 'poll_vote', group: groupId, pollVote: { messageId: groupPoll.id, options: ['Here'] } } });
    expect(named.status, named.text).toBe(200);
    expect(named.body.data).toEqual({ messageId: groupPoll.id, options: ['Here'] });
  });
});
