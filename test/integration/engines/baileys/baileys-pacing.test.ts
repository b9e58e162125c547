import { describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { SendText } from '../../../graphql/operations.js';

// Sending that keeps the number safe (docs/settings.md, "Sending" and "Restrictions"), as the local
// network sees it: when messages arrive, what it refused with 463, and what the phones decoded.
describe.each(MODES)('CHAT-BAILEYS: paced sending and reach-out restrictions — $name', (mode) => {
  const world = baileysWorld(mode, { env: { RATE_LIMIT_BURST: '1000' } });
  const digits = (phone: string) => phone.replace(/^\+/, '');

  /** A paired v1 instance with a webhook that takes instance.restricted, and its settings as given. */
  async function instance(sending?: Record<string, unknown>) {
    const key = world.tenant.liveKey;
    const paired = await pairedV1(world.api, key, world.network, `pacing ${Date.now()}`);
    const hooked = await world.api.post(`/v1/chat/instances/${paired.id}/webhook`, { key, body: { url: world.receiver.url, events: ['messages.update', 'instance.restricted'] } });
    expect(hooked.status, hooked.text).toBe(200);
    if (sending) {
      const set = await world.api.put(`/v1/chat/instances/${paired.id}/settings`, { key, body: { sending } });
      expect(set.status, set.text).toBe(200);
    }
    return { ...paired, own: digits(paired.phone) };
  }

  const send = async (instanceId: string, to: string, text: string) => {
    const sent = await world.api.post(`/v1/chat/instances/${instanceId}/messages`, { key: world.tenant.liveKey, body: { to: digits(to), text } });
    expect(sent.status, sent.text).toBe(200);
    return sent.body.data as { id: string; status: string };
  };
  const statusOf = async (messageId: string) => (await world.api.get(`/v1/messages/status/${messageId}`, { key: world.tenant.liveKey })).body.data.status as string;
  /** The stanzas the network took from the instance's device for `to`, oldest first. */
  const arrivals = (own: string, to: string) => world.network.received().filter((stanza) => stanza.phone === own && stanza.to.startsWith(`${digits(to)}@`));
  const restrictions = (instanceId: string) =>
    world.receiver
      .of('instance.restricted')
      .map((call) => JSON.parse(call.body))
      .filter((body) => body.instanceId === instanceId)
      .map((body) => body.data as { reason: string; until: string | null });

  it('100 sends answer at once, queued, and reach the network no faster than the interval', async () => {
    const paced = await instance({ minIntervalMs: 40, jitterMs: 20 });
    const to = newNetworkPhone();
    const answers = [];
    for (let n = 0; n < 100; n++) answers.push(await send(paced.id, to, `paced ${n}`));
    // Every request was answered before the network had them all: the pace is kept in the background.
    const arrivedWhenAnswered = arrivals(paced.own, to).length;
    expect(answers.every((answer) => answer.status === 'queued')).toBe(true);
    expect(arrivedWhenAnswered).toBeLessThan(100);

    await world.network.waitForInbox(to, 100, 60_000);
    const times = arrivals(paced.own, to).map((stanza) => stanza.at.getTime());
    expect(times).toHaveLength(100);
    const gaps = times.slice(1).map((at, n) => at - times[n]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(40);
    expect(world.network.inbox(to).map((entry) => entry.text)).toEqual(answers.map((_, n) => `paced ${n}`));
  }, 120_000);

  it('first messages to new contacts beyond the hour\'s budget wait; a known chat behind them goes', async () => {
    const budgeted = await instance({ newContactsPerHour: 2 });
    const [first, second, third, known] = [newNetworkPhone(), newNetworkPhone(), newNetworkPhone(), newNetworkPhone()];
    // `known` wrote first: answering it is no reach-out.
    await world.network.send(known!, budgeted.phone, { text: 'hello there' });
    await eventually(() => world.api.get(`/v1/messages/list?direction=in`, { key: world.tenant.liveKey }), (r) => r.body.data?.some((m: { from: string }) => m.from === digits(known!)), 20_000);
    const waiting = [];
    for (const phone of [first!, second!, third!]) waiting.push(await send(budgeted.id, phone, `hi ${phone}`));
    await send(budgeted.id, known!, 'a reply');

    await world.network.waitForInbox(known!, 1, 20_000);
    await world.network.waitForInbox(first!, 1, 20_000);
    await world.network.waitForInbox(second!, 1, 20_000);
    expect(arrivals(budgeted.own, third!)).toHaveLength(0);
    expect(await statusOf(waiting[2]!.id)).toBe('queued');
  }, 60_000);

  it('a 463 holds the queue until the timelock ends, then every message goes, none failed', async () => {
    const capped = await instance();
    world.network.setReachOutCap({ count: 2, windowMs: 3000 });
    try {
      const phones = [newNetworkPhone(), newNetworkPhone(), newNetworkPhone(), newNetworkPhone()];
      const sent = [];
      for (const phone of phones) sent.push(await send(capped.id, phone, `reach ${phone}`));

      const [held] = await eventually(async () => restrictions(capped.id), (list) => list.length >= 1, 20_000);
      expect(held!.reason).toBe('reach_out_timelock');
      const until = world.network.timelockOf(capped.own)!.until.getTime();
      expect(new Date(held!.until!).getTime()).toBeGreaterThanOrEqual(until);
      // Held, not failed: the refused ones are still queued while the lock lasts.
      expect(await statusOf(sent[3]!.id)).toBe('queued');
      // The account's limits as the network tells them, in both variants and GraphQL.
      const limits = await world.api.get(`/v1/chat/instances/${capped.id}/restrictions`, { key: world.tenant.liveKey });
      expect(limits.status, limits.text).toBe(200);
      expect(limits.body.data).toEqual({
        timelock: { reason: 'reach_out_timelock', until: new Date(Math.ceil(until / 1000) * 1000).toISOString() },
        messageCap: { limit: 2, used: 2, resetAt: expect.any(String) },
      });
      const bySession = await world.api.get(`/chat/instances/${capped.id}/restrictions`, { cookie: world.tenant.cookie });
      expect(bySession.body.data?.messageCap, bySession.text).toEqual(limits.body.data.messageCap);
      const byGraphql = await world.api.graphql('query ($id: ID!) { node(id: $id) { ... on Instance { restrictions { timelock { reason } messageCap { limit used } } } } }', { id: capped.id }, { cookie: world.tenant.cookie });
      expect(byGraphql.body.data.node.restrictions).toEqual({ timelock: { reason: 'reach_out_timelock' }, messageCap: { limit: 2, used: 2 } });

      for (const phone of phones) await world.network.waitForInbox(phone, 1, 20_000);
      await eventually(async () => restrictions(capped.id), (list) => list.some((r) => r.until === null), 20_000);
      // The network took the held ones only once the lock had ended.
      const late = phones.slice(2).flatMap((phone) => arrivals(capped.own, phone).filter((stanza) => stanza.at.getTime() >= until));
      expect(late.length).toBeGreaterThanOrEqual(2);
      for (const message of sent) await eventually(() => statusOf(message.id), (status) => ['sent', 'delivered', 'read'].includes(status), 10_000);
      const failed = world.receiver.of('messages.update').map((call) => JSON.parse(call.body)).filter((body) => body.instanceId === capped.id && body.data.status === 'failed');
      expect(failed).toEqual([]);
    } finally {
      world.network.setReachOutCap(null);
    }
  }, 60_000);

  it('a timelock the network announces holds the queue until it ends, and is lifted by itself', async () => {
    const locked = await instance();
    const until = new Date(Date.now() + 2500);
    world.network.setTimelock(locked.own, until);
    const [told] = await eventually(async () => restrictions(locked.id), (list) => list.length >= 1, 20_000);
    expect(told).toEqual({ reason: 'reach_out_timelock', until: new Date(Math.ceil(until.getTime() / 1000) * 1000).toISOString() });
    // The instance says so while it lasts: REST detail and GraphQL.
    const detail = await world.api.get(`/v1/chat/instances/${locked.id}`, { key: world.tenant.liveKey });
    expect(detail.body.data.restricted).toEqual(told);
    const sessionDetail = await world.api.get(`/chat/instances/${locked.id}`, { cookie: world.tenant.cookie });
    expect(sessionDetail.body.data.restricted, sessionDetail.text).toEqual(told);
    const byGraphql = await world.api.graphql('query ($id: ID!) { node(id: $id) { ... on Instance { restricted { reason until } } } }', { id: locked.id }, { cookie: world.tenant.cookie });
    expect(byGraphql.body.data.node.restricted).toEqual(told);
    const to = newNetworkPhone();
    const message = await send(locked.id, to, 'after the lock');
    expect(message.status).toBe('queued');

    await world.network.waitForInbox(to, 1, 20_000);
    expect(arrivals(locked.own, to)[0]!.at.getTime()).toBeGreaterThanOrEqual(until.getTime());
    await eventually(async () => restrictions(locked.id), (list) => list.at(-1)?.until === null, 20_000);
    await eventually(() => statusOf(message.id), (status) => ['sent', 'delivered', 'read'].includes(status), 10_000);
    expect((await world.api.get(`/v1/chat/instances/${locked.id}`, { key: world.tenant.liveKey })).body.data.restricted).toBeNull();
  }, 60_000);

  it('a first message to a number the network does not know is 422 not_on_network, through REST and GraphQL; nothing is sent', async () => {
    const guarded = await instance({ newContactsPerHour: 50 });
    const stranger = newNetworkPhone();
    world.network.setRegistered(stranger, false);
    const refused = await world.api.post(`/v1/chat/instances/${guarded.id}/messages`, { key: world.tenant.liveKey, body: { to: digits(stranger), text: 'hello?' } });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.code).toBe('not_on_network');
    // GraphQL sends through the same path.
    const byGraphql = await world.api.operation(SendText, { input: { instanceId: guarded.id, to: digits(stranger), message: 'hello again?' } }, { cookie: world.tenant.cookie });
    expect(byGraphql.body.data!.sendText.userErrors.map((e) => e.code)).toEqual(['not_on_network']);

    const member = newNetworkPhone();
    expect((await send(guarded.id, member, 'hello member')).status).toBe('queued');
    await world.network.waitForInbox(member, 1, 20_000);
    expect(arrivals(guarded.own, stranger)).toHaveLength(0);
  }, 60_000);

  it('with typing on, the phone sees the instance type for a time scaled to the text before it arrives; the request does not wait', async () => {
    const typist = await instance({ typing: true });
    const to = newNetworkPhone();
    const text = 'x'.repeat(30); // 30 characters: 1.2 s of typing
    const answered = await send(typist.id, to, text);
    expect(answered.status).toBe('queued');
    expect(arrivals(typist.own, to)).toHaveLength(0);

    await world.network.waitForInbox(to, 1, 20_000);
    const typed = world.network.chatStates(to).filter((state) => state.from === typist.own && state.state === 'composing');
    expect(typed).toHaveLength(1);
    const arrived = arrivals(typist.own, to)[0]!.at.getTime();
    expect(arrived - typed[0]!.at.getTime()).toBeGreaterThanOrEqual(1200);
  }, 60_000);

  it('the restrictions of an engine that cannot read them are 422 not_supported', async () => {
    const created = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `sandbox ${Date.now()}`, integration: 'CHAT-SANDBOX' } });
    expect(created.status, created.text).toBe(201);
    const refused = await world.api.get(`/v1/chat/instances/${created.body.data.id}/restrictions`, { key: world.tenant.liveKey });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.code).toBe('not_supported');
  });
});
