import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/actor.js';
import type { InboundMessage } from '../../../src/domain/network/engine-messages.js';
import type { HistoryBatch } from '../../../src/domain/network/engine-history.js';
import { connectedSessionInstance, newPhone } from '../../factories/sandbox.js';
import { createTenant, type TestTenant } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';
import { eventually } from '../../factories/sandbox.js';

// The read model under what engines report (docs/conversations.md): chats made by received
// messages, exact unread counts, history stored once and quietly, and a LID's chat merging.
/** What an engine (a report) and a client (an action) do with a refusal that says "retry": on a loaded machine a burst on one instance can outwait its pooled connection, or a lease lapse for a moment. */
async function asCallersDo<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 5 || (code !== 'service_unavailable' && code !== 'instance_unavailable')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

const text = (from: string | null, words: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
  networkMessageId: `N${Math.random().toString(36).slice(2)}`,
  from,
  type: 'text',
  text: words,
  location: null,
  pushName: null,
  ...extra,
});

describe.each(MODES)('the conversations read model — $name', (mode) => {
  let gw: TestGateway;
  let tenant: TestTenant;
  let actor: Actor;
  let instanceId: string;
  let receiver: Receiver;

  beforeAll(async () => {
    gw = await startTestGateway(mode, { env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
    receiver = await startReceiver();
    const api = client(gw.url);
    tenant = await createTenant(gw.gateway, api);
    actor = { kind: 'user', tenantId: tenant.tenantId } as Actor;
    instanceId = (await connectedSessionInstance(api, tenant.cookie, 'Read model')).id;
    const hooked = await api.post(`/v1/chat/instances/${instanceId}/webhook`, {
      key: tenant.liveKey,
      body: { url: `${receiver.url}/hook`, events: ['messages.upsert', 'chats.upsert', 'chats.update', 'chats.delete', 'history.sync'] },
    });
    expect(hooked.status, hooked.text).toBe(200);
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  const events = () => gw.gateway.services.engineEvents;
  const conversations = () => gw.gateway.services.conversations;
  const delivered = (event: string) => receiver.of(event).map((r) => JSON.parse(r.body).data as Record<string, unknown>);

  it('makes a chat per person and per group, named and counted as messages arrive', async () => {
    const phone = newPhone().replace('+', '');
    await events().inbound(instanceId, text(phone, 'one', { pushName: 'Ana' }));
    await events().inbound(instanceId, text(phone, 'two'));
    await events().inbound(instanceId, text(phone, '👍', { type: 'reaction', reaction: { emoji: '👍', networkMessageId: 'X' } }));
    await events().inbound(instanceId, text(phone, 'in the group', { group: { id: '120363000000000001@g.us', subject: 'Team' } }));

    const direct = await conversations().chat(actor, instanceId, phone);
    expect(direct).toMatchObject({ id: phone, kind: 'direct', name: 'Ana', unreadCount: 2 });
    expect(direct.lastMessage?.type).toBe('reaction');
    const group = await conversations().chat(actor, instanceId, '120363000000000001@g.us');
    expect(group).toMatchObject({ kind: 'group', name: 'Team', unreadCount: 1 });
    await eventually(
      async () => delivered('chats.upsert').map((chat) => chat.id),
      (ids) => ids.includes(phone) && ids.includes('120363000000000001@g.us'),
    );

    const page = await conversations().chats(actor, instanceId, { filter: 'groups' });
    expect(page.items.map((c) => c.id)).toEqual(['120363000000000001@g.us']);
  });

  it('keeps unread exact while 50 messages race a mark-read', async () => {
    const phone = newPhone().replace('+', '');
    await events().inbound(instanceId, text(phone, 'first'));
    const racing = Array.from({ length: 50 }, (_, n) => asCallersDo(() => events().inbound(instanceId, text(phone, `m${n}`))));
    const read = asCallersDo(() => conversations().act(actor, instanceId, phone, 'read'));
    await Promise.all([...racing, read]);
    const chat = await conversations().chat(actor, instanceId, phone);
    const unreadLeft = await gw.gateway.infra.db.prisma.message.count({ where: { instanceId, chatId: phone, direction: 'in', readAt: null } });
    expect(chat.unreadCount).toBe(unreadLeft);
    expect(unreadLeft).toBeLessThan(51);
    const again = await conversations().act(actor, instanceId, phone, 'read');
    expect(again.unreadCount).toBe(0);
    expect(await gw.gateway.infra.db.prisma.message.count({ where: { instanceId, chatId: phone, readAt: null, direction: 'in' } })).toBe(0);
  });

  it('stores a history batch once, as history, announcing no message', async () => {
    const phone = newPhone().replace('+', '');
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000);
    const batch: HistoryBatch = {
      key: `history-${phone}`,
      chats: [{ chat: phone, name: 'Saved Name', unreadCount: 1, archived: true }],
      contacts: [{ phone, pushName: 'Pushed' }],
      messages: [
        { chat: phone, fromMe: false, at: at(3), message: text(phone, 'old in') },
        { chat: phone, fromMe: true, at: at(2), message: text(null, 'old out'), status: 'read' },
      ],
      progress: 40,
      done: false,
    };
    await events().history(instanceId, batch);
    await events().history(instanceId, batch);

    const stored = await gw.gateway.infra.db.prisma.message.findMany({ where: { instanceId, chatId: phone }, orderBy: { createdAt: 'asc' } });
    expect(stored.map((m) => [m.text, m.direction, m.history, m.status])).toEqual([
      ['old in', 'in', true, 'delivered'],
      ['old out', 'out', true, 'read'],
    ]);
    expect(stored[0]!.createdAt.getTime()).toBe(batch.messages[0]!.at.getTime());
    const chat = await conversations().chat(actor, instanceId, phone);
    expect(chat).toMatchObject({ name: 'Saved Name', unreadCount: 1, archived: true });
    expect(chat.lastMessage?.text).toBe('old out');
    // Told once (the second hand-over tells nothing), and no old message raised messages.upsert.
    const sync = await eventually(async () => delivered('history.sync'), (syncs) => syncs.some((s) => s.progress === 40));
    expect(sync.filter((s) => s.progress === 40 && s.batches === 1 + sync.indexOf(s))).toHaveLength(1);
    expect(delivered('messages.upsert').filter((m) => ['old in', 'old out'].includes(m.text as string))).toEqual([]);
  });

  it('moves a chat that began under a LID to the phone number once it is known', async () => {
    const phone = newPhone().replace('+', '');
    const lid = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    await events().inbound(instanceId, text(null, 'hidden', { fromLid: lid }));
    await events().inbound(instanceId, text(phone, 'shown'));
    expect((await conversations().chat(actor, instanceId, `${lid}@lid`)).unreadCount).toBe(1);

    await events().contacts(instanceId, [{ phone, lid }]);
    const merged = await conversations().chat(actor, instanceId, phone);
    expect(merged.unreadCount).toBe(2);
    const messages = await conversations().messages(actor, instanceId, phone, {});
    expect(messages.items.map((m) => [m.text, m.from])).toEqual([
      ['shown', phone],
      ['hidden', phone],
    ]);
    await expect(conversations().chat(actor, instanceId, `${lid}@lid`)).rejects.toThrow(/chatId/);
    await eventually(async () => delivered('chats.delete').map((chat) => chat.id), (ids) => ids.includes(`${lid}@lid`));
  });

  it('pages a chat list by cursor, and forgets a deleted chat with its messages', async () => {
    const phones = Array.from({ length: 5 }, () => newPhone().replace('+', ''));
    for (const phone of phones) await events().inbound(instanceId, text(phone, `hi ${phone}`));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await conversations().chats(actor, instanceId, { limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((c) => c.id));
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(phones));

    await conversations().deleteChat(actor, instanceId, phones[0]!);
    expect(await gw.gateway.infra.db.prisma.message.count({ where: { instanceId, chatId: phones[0]! } })).toBe(0);
    await expect(conversations().chat(actor, instanceId, phones[0]!)).rejects.toThrow(/chatId/);
  });
  it('names a group chat by the subject the network gives, before and after its first message', async () => {
    const group = `120363${String(Date.now()).slice(-10)}@g.us`;
    await events().network(instanceId, { event: 'groups.upsert', data: { groups: [{ id: group, subject: 'Launch', description: null, owner: null, participants: [], createdAt: null }] } });
    expect(await conversations().chat(actor, instanceId, group)).toMatchObject({ kind: 'group', name: 'Launch', unreadCount: 0, lastMessage: null });
    await events().network(instanceId, { event: 'groups.update', data: { id: group, author: null, subject: 'Launch day' } });
    expect((await conversations().chat(actor, instanceId, group)).name).toBe('Launch day');
    await eventually(async () => delivered('chats.update').filter((chat) => chat.id === group), (told) => told.some((chat) => chat.name === 'Launch day'));
  });
});
