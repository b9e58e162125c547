// The sandbox's past (docs/engines.md, "The sandbox's past"): every phone has a made-up past here
// (SANDBOX_PAST=generated), which a linked instance takes as history, and the control API gives a
// phone one of its own.
import { describe, expect, it } from 'vitest';
import { connectedV1Instance, eventually, newPhone, sleep } from '../../../factories/sandbox.js';
import { client } from '../../../helpers/http.js';
import { decodeQr } from '../../../../src/infra/qr-decode.js';
import { startTestGateway } from '../../../kit/gateway.js';
import { MODES } from '../../../kit/modes.js';
import { sandboxWorld } from '../../../kit/worlds/sandbox.js';

interface PastMessage {
  id: string;
  chat: string;
  fromMe: boolean;
  from: string | null;
  at: string;
  type: string;
  text: string | null;
  caption: string | null;
  reaction: { messageId: string } | null;
  quotedId: string | null;
}
interface Past {
  chats: Array<{ id: string; name: string | null }>;
  contacts: Array<{ phone: string; name: string | null; pushName: string | null }>;
  messages: PastMessage[];
}

const DAY_MS = 86_400_000;
const ENV = { SANDBOX_PAST: 'generated', WEBHOOK_ALLOW_INSECURE: 'true' };

describe.each(MODES)("Sandbox: a phone's past, taken as history — $name", (mode) => {
  // A gateway of its own: every phone has a made-up past here, and the last test restarts it.
  const world = sandboxWorld(mode, { env: ENV });
  const key = () => world.tenant.liveKey;
  const pastOf = async (phone: string) => (await world.api.get(`/sandbox/phones/${phone.replace('+', '')}/past`)).body.data as Past;
  const chats = async (id: string) => (await world.api.get(`/v1/chat/instances/${id}/chats?limit=100`, { key: key() })).body.data as Array<{ id: string; name: string; kind: string; unreadCount: number; archived: boolean; pinned: boolean }>;
  const messagesOf = async (id: string, chat: string) =>
    ((await world.api.get(`/v1/chat/instances/${id}/chats/${encodeURIComponent(chat)}/messages?limit=100`, { key: key() })).body.data ?? []) as Array<{
      id: string;
      text: string | null;
      media?: { caption: string | null; url: string; mimetype: string };
      direction: string;
      type: string;
      history: boolean;
    }>;
  const within30Days = (past: Past) => past.messages.filter((m) => Date.parse(m.at) >= Date.now() - 30 * DAY_MS);

  it('a made-up past is the same every time for one phone and another for another: direct chats and a group, both directions, every kind', async () => {
    const phone = newPhone();
    const past = await pastOf(phone);
    expect(await pastOf(phone)).toEqual(past);
    expect((await pastOf(newPhone())).messages.map((m) => m.chat)).not.toEqual(past.messages.map((m) => m.chat));

    expect(past.chats.filter((c) => c.id.endsWith('@g.us'))).toHaveLength(1);
    expect(past.chats.filter((c) => /^\d+$/.test(c.id))).toHaveLength(3);
    expect(new Set(past.messages.map((m) => m.fromMe))).toEqual(new Set([true, false]));
    expect(new Set(past.messages.map((m) => m.type))).toEqual(new Set(['text', 'image', 'location', 'reaction']));
    expect(past.messages.find((m) => m.type === 'image')!.caption).toEqual(expect.any(String));
    const ids = new Set(past.messages.map((m) => m.id));
    for (const m of past.messages) {
      if (m.reaction) expect(ids).toContain(m.reaction.messageId);
      if (m.quotedId) expect(ids).toContain(m.quotedId);
    }
    expect(past.messages.some((m) => m.quotedId)).toBe(true);
    // Saved names and the names people gave themselves; one known only by the latter.
    expect(past.contacts.some((c) => c.name && c.pushName)).toBe(true);
    expect(past.contacts.some((c) => !c.name && c.pushName)).toBe(true);
    // Some of it is older than the 30 days an instance takes by default.
    expect(within30Days(past).length).toBeLessThan(past.messages.length);
    expect(within30Days(past).length).toBeGreaterThan(0);
  });

  it('refuses a bad past, naming the field; answers what it kept of a good one', async () => {
    const phone = newPhone().slice(1);
    const give = (body: unknown) => world.api.post(`/sandbox/phones/${phone}/past`, { body });
    const at = new Date(Date.now() - DAY_MS).toISOString();
    const cases: Array<[unknown, string]> = [
      [{ messages: [{ id: 'a', chat: 'nobody', at, text: 'hi' }] }, 'messages.0.chat'],
      [{ messages: [{ id: 'a', chat: '5511988887777', at: new Date(Date.now() + DAY_MS).toISOString(), text: 'hi' }] }, 'messages.0.at'],
      [{ messages: [{ id: 'a', chat: '5511988887777', at }] }, 'messages.0.text'],
      [{ messages: [{ id: 'a', chat: '5511988887777', at, text: 'hi', quotedId: 'zzz' }] }, 'messages.0.quotedId'],
      [{ messages: [{ id: 'a', chat: '120363111111111111@g.us', at, text: 'hi' }] }, 'messages.0.from'],
      [{ messages: [{ id: 'a', chat: '5511988887777', at, text: 'hi' }, { id: 'a', chat: '5511988887777', at, text: 'again' }] }, 'messages.1.id'],
      [{ chats: [{ id: '5511988887777' }, { id: '+5511988887777' }] }, 'chats.1.id'],
      [{ messages: 'none' }, 'messages'],
    ];
    for (const [body, field] of cases) {
      const answer = await give(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message, answer.text).toContain(`${field}: `);
    }
    expect((await world.api.post('/sandbox/phones/abc/past', { body: {} })).status).toBe(400);

    const answer = await give({ messages: [{ id: 'a', chat: '+5511988887777', at, text: 'hi' }], contacts: [{ phone: '5511988887777', name: 'Zé' }] });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({ phone, chats: 1, contacts: 1, messages: 1, told: 0 });
    expect((await pastOf(phone)).chats).toEqual([{ id: '5511988887777', name: null, unreadCount: 0, archived: false, pinned: false }]);
  });

  it('a linked instance takes the last 30 days of its phone\'s past as history: chats named as the phone names them, no messages.upsert, media served', async () => {
    const phone = newPhone();
    const past = await pastOf(phone);
    const instance = await connectedV1Instance(world.api, key(), `past ${Date.now()}`, phone);
    const hooked = await world.api.post(`/v1/chat/instances/${instance.id}/webhook`, { key: key(), body: { url: `${world.receiver.url}/past-${instance.id}` } });
    expect(hooked.status, hooked.text).toBe(200);
    const taken = within30Days(past);
    const chatIds = [...new Set(taken.map((m) => m.chat))];
    const listed = await eventually(() => chats(instance.id), (list) => chatIds.every((id) => list.some((c) => c.id === id)), 15_000);
    const group = past.chats.find((c) => c.id.endsWith('@g.us'))!;
    expect(listed.find((c) => c.id === group.id)).toMatchObject({ kind: 'group', name: group.name });
    for (const contact of past.contacts.filter((c) => chatIds.includes(c.phone))) {
      expect(listed.find((c) => c.id === contact.phone)).toMatchObject({ kind: 'direct', name: contact.name ?? contact.pushName ?? contact.phone });
    }

    let stored = 0;
    for (const chat of chatIds) {
      const expected = taken.filter((m) => m.chat === chat);
      const list = await eventually(() => messagesOf(instance.id, chat), (l) => l.length === expected.length, 15_000);
      expect(list.every((m) => m.history)).toBe(true);
      // Newest first, as the phone had them.
      expect(list.map((m) => m.direction)).toEqual([...expected].sort((x, y) => Date.parse(y.at) - Date.parse(x.at)).map((m) => (m.fromMe ? 'out' : 'in')));
      stored += list.length;
    }
    expect(stored).toBe(taken.length);

    const image = taken.find((m) => m.type === 'image')!;
    const shown = (await messagesOf(instance.id, image.chat)).find((m) => m.type === 'image')!;
    expect(shown.media).toMatchObject({ caption: image.caption, mimetype: 'image/png' });
    const media = await world.api.get(shown.media!.url, { key: key() });
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toContain('image/png');

    const contacts = (await world.api.get(`/v1/chat/instances/${instance.id}/contacts?limit=100`, { key: key() })).body.data as Array<{ phone: string; name: string | null; pushName: string | null }>;
    for (const contact of past.contacts) expect(contacts).toContainEqual(expect.objectContaining({ phone: contact.phone, name: contact.name, pushName: contact.pushName }));
    // History is no news: no message of the past was announced.
    const upserts = world.receiver.of('messages.upsert').filter((call) => JSON.parse(call.body).instanceId === instance.id);
    expect(upserts).toEqual([]);
  });

  it('tells a session instance history.sync for each batch, up to progress 100 and done, and chats.upsert for the chats they made', async () => {
    const phone = newPhone();
    const past = await pastOf(phone);
    const created = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `sync ${Date.now()}` } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.instanceId as string;
    const hooked = await world.api.post(`/v1/chat/instances/${id}/webhook`, { key: key(), body: { url: `${world.receiver.url}/sync-${id}`, events: ['history.sync', 'chats.upsert', 'messages.upsert'] } });
    expect(hooked.status, hooked.text).toBe(200);
    const detail = await eventually(() => world.api.get(`/chat/instances/${id}`, { cookie: world.tenant.cookie }), (r) => Boolean(r.body.data?.qrCode));
    expect((await world.api.post('/sandbox/scan', { body: { code: decodeQr(detail.body.data.qrCode.base64), phone } })).status).toBe(200);

    const ofThis = (event: string) => world.receiver.of(event).map((call) => JSON.parse(call.body)).filter((body) => body.instance?.instanceId === id).map((body) => body.data);
    const syncs = await eventually(async () => ofThis('history.sync'), (list) => list.some((data) => data.done), 15_000);
    const taken = within30Days(past);
    expect(syncs.map((data) => data.batches)).toEqual(syncs.map((_, index) => index + 1));
    expect(syncs.at(-1)).toEqual({ batches: Math.ceil(taken.length / 6), messages: taken.length, chats: new Set(taken.map((m) => m.chat)).size, progress: 100, done: true });
    expect(syncs.map((data) => data.progress)).toEqual([...syncs.map((data) => data.progress)].sort((x, y) => x - y));
    expect(new Set(ofThis('chats.upsert').map((chat) => chat.id))).toEqual(new Set(taken.map((m) => m.chat)));
    expect(ofThis('messages.upsert')).toEqual([]);
  });

  it("follows the instance's historySync: none takes no message but the address book, full all of it, recent its days", async () => {
    const linked = async (historySync: object) => {
      const phone = newPhone();
      const created = await world.api.post('/v1/chat/instances', { key: key(), body: { name: `terms ${Date.now()} ${Math.random()}`, historySync } });
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id as string;
      const qr = await world.api.get(`/v1/chat/instances/${id}/qr`, { key: key() });
      expect((await world.api.post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode), phone } })).status).toBe(200);
      return { id, past: await pastOf(phone) };
    };
    const stored = async (id: string, past: Past) => (await Promise.all(past.chats.map((chat) => messagesOf(id, chat.id)))).flat().length;
    const contactsOf = async (id: string) => (await world.api.get(`/v1/chat/instances/${id}/contacts?limit=100`, { key: key() })).body.data as unknown[];

    const full = await linked({ mode: 'full' });
    await eventually(() => stored(full.id, full.past), (n) => n === full.past.messages.length, 15_000);
    const week = await linked({ mode: 'recent', days: 7 });
    const lastWeek = week.past.messages.filter((m) => Date.parse(m.at) >= Date.now() - 7 * DAY_MS).length;
    await eventually(() => stored(week.id, week.past), (n) => n === lastWeek, 15_000);
    const none = await linked({ mode: 'none' });
    await eventually(() => contactsOf(none.id), (list) => list.length === none.past.contacts.length, 15_000);
    // What must not happen: a window for batches that would have come, then still no message.
    await sleep(1000);
    expect(await stored(none.id, none.past)).toBe(0);
    expect(await chats(none.id)).toEqual([]);
  });

  it('a past given to a connected phone is taken at once; given again, it stores nothing twice', async () => {
    const instance = await connectedV1Instance(world.api, key(), `given ${Date.now()}`);
    const made = within30Days(await pastOf(instance.phone));
    await eventually(async () => (await chats(instance.id)).length, (n) => n > 0, 15_000);
    const peer = newPhone().slice(1);
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    const body = {
      chats: [{ id: peer, name: 'Given Peer', unreadCount: 1 }],
      contacts: [{ phone: peer, name: 'Given Peer', pushName: 'GP' }],
      messages: [
        { id: 'q', chat: peer, at: at(5), text: 'What time?', pushName: 'GP' },
        { id: 'a', chat: peer, fromMe: true, at: at(4), text: 'Noon', quotedId: 'q', status: 'delivered' },
        { id: 'r', chat: peer, at: at(3), type: 'reaction', reaction: { messageId: 'a', emoji: '👍' } },
      ],
    };
    const given = await world.api.post(`/sandbox/phones/${instance.phone.slice(1)}/past`, { body });
    expect(given.status, given.text).toBe(200);
    expect(given.body.data.told).toBe(1);
    const list = await eventually(() => messagesOf(instance.id, peer), (l) => l.length === 3, 15_000);
    expect(list.map((m) => [m.direction, m.type, m.text])).toEqual([
      ['in', 'reaction', null],
      ['out', 'text', 'Noon'],
      ['in', 'text', 'What time?'],
    ]);
    expect((await chats(instance.id)).find((c) => c.id === peer)).toMatchObject({ name: 'Given Peer', kind: 'direct' });
    expect((await world.api.get(`/sandbox/phones/${instance.phone.slice(1)}/past`)).body.data.messages).toHaveLength(3);

    // The same past again: the same batches, which the gateway already has.
    expect((await world.api.post(`/sandbox/phones/${instance.phone.slice(1)}/past`, { body })).status).toBe(200);
    const mark = await world.api.post('/sandbox/messages', { body: { from: peer, to: instance.phone.slice(1), text: 'after the past' } });
    expect(mark.status, mark.text).toBe(200);
    await eventually(() => messagesOf(instance.id, peer), (l) => l.length === 4);
    expect(await messagesOf(instance.id, peer)).toHaveLength(4);
    // The made-up past the instance took first is still there, beside the given one.
    const total = (await chats(instance.id)).length;
    expect(total).toBeGreaterThanOrEqual(new Set(made.map((m) => m.chat)).size + 1);
  });

  it('after a restart the instance takes its past again under the same batch keys: nothing is stored twice', async () => {
    const instance = await connectedV1Instance(world.api, key(), `restart ${Date.now()}`);
    const taken = within30Days(await pastOf(instance.phone));
    const count = async () => (await Promise.all([...new Set(taken.map((m) => m.chat))].map((chat) => messagesOf(instance.id, chat)))).flat().length;
    await eventually(count, (n) => n === taken.length, 15_000);

    const first = world.gw;
    await first.gateway.close();
    world.gw = await startTestGateway(mode, { env: ENV, reuse: first });
    world.api = client(world.gw.url);
    await eventually(() => world.api.get(`/v1/chat/instances/${instance.id}`, { key: key() }), (r) => r.body.data.status === 'connected', 15_000);
    // What must not happen: a window for the new session's sync to run, then the count is the same.
    await sleep(2000);
    expect(await count()).toBe(taken.length);
  }, 90_000);
});
