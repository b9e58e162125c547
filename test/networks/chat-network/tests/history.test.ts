import { get } from 'node:https';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { processHistoryMessage, proto, type WAMessage } from 'baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatNetwork, type ChatNetwork } from '../index.js';
import { connectClient, pairByQr, trustNetwork, type TestClient } from '../control/test-client.js';
import { decryptMedia } from '../protocol/media-crypto.js';
import { phoneNumbers } from './linked-device.js';

const Type = proto.HistorySync.HistorySyncType;
const newPhone = phoneNumbers('1561');
const DAY = 86_400_000;
let network: ChatNetwork;

beforeAll(async () => {
  network = await startChatNetwork();
  trustNetwork(network);
});
afterAll(() => network.close());

/** The history notifications a client got, in order. */
const notifications = (client: TestClient) =>
  client.events
    .filter((event) => event.name === 'messages.upsert')
    .flatMap((event) => (event.data as { messages: WAMessage[] }).messages)
    .flatMap((message) => {
      const notification = message.message?.protocolMessage?.historySyncNotification;
      return notification && message.key.fromMe ? [{ id: message.key.id!, notification }] : [];
    });

/** The chunk a notification points at: downloaded from the media host, checked, decrypted and inflated. */
async function chunkOf(notification: proto.Message.IHistorySyncNotification): Promise<proto.HistorySync> {
  const encrypted = await new Promise<Buffer>((resolve, reject) => {
    get(`https://${network.mediaHost}${notification.directPath}`, { ca: network.caPem }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
  const plain = await decryptMedia(encrypted, notification.mediaKey!, 'md-msg-hist', notification);
  expect(plain.length).toBe(Number(notification.fileLength));
  return proto.HistorySync.decode(await promisify(inflate)(plain));
}

describe('history sync', () => {
  it('a phone with a past sends a new device its chats in chunks, then push names; a chunk handed over again keeps its id', async () => {
    const phone = newPhone();
    const friend = newPhone();
    const hidden = newPhone();
    const author = newPhone();
    network.setProfile(friend, { pushName: 'Friend' });
    const group = network.groupCreate(author, 'Past team', [phone]);
    network.setHistory(phone, {
      chatsPerChunk: 1,
      chats: [
        { with: friend, messages: [
          { id: 'F1', text: 'hi', at: new Date(Date.now() - 3 * DAY) },
          { id: 'F2', text: 'hello back', at: new Date(Date.now() - 2 * DAY), fromMe: true, status: 'read' },
        ] },
        { with: group, name: 'Past team', messages: [{ id: 'G1', text: 'team news', at: new Date(Date.now() - DAY), author }] },
        { with: hidden, lidOnly: true, messages: [{ id: 'H1', text: 'who am I', at: new Date(Date.now() - 4 * DAY) }] },
      ],
    });
    const client = await pairByQr(network, phone);
    try {
      await client.until(() => notifications(client).length >= 4, 15_000, 'four history chunks');
      const got = notifications(client);
      expect(got.map(({ notification }) => [notification.syncType, notification.chunkOrder, notification.progress ?? null])).toEqual([
        [Type.INITIAL_BOOTSTRAP, 0, 33],
        [Type.RECENT, 1, 67],
        [Type.RECENT, 2, 100],
        [Type.PUSH_NAME, 3, null],
      ]);
      const chunks = await Promise.all(got.map(({ notification }) => chunkOf(notification)));
      const first = processHistoryMessage(chunks[0]!);
      expect(first.chats.map((chat) => chat.id)).toEqual([group]);
      expect(first.messages[0]).toMatchObject({ key: { remoteJid: group, fromMe: false, id: 'G1', participant: `${network.lidOf(author)}@lid` } });
      expect(first.lidPnMappings).toContainEqual({ lid: `${network.lidOf(author)}@lid`, pn: `${author}@s.whatsapp.net` });
      const second = processHistoryMessage(chunks[1]!);
      expect(second.messages.map((message) => [message.key.id, message.key.fromMe, message.message?.conversation])).toEqual([
        ['F2', true, 'hello back'],
        ['F1', false, 'hi'],
      ]);
      const third = processHistoryMessage(chunks[2]!);
      expect(third.chats[0]!.id).toBe(`${network.lidOf(hidden)}@lid`);
      expect(third.lidPnMappings).toEqual([]);
      const names = processHistoryMessage(chunks[3]!);
      expect(names.contacts).toContainEqual({ id: `${friend}@s.whatsapp.net`, notify: 'Friend' });

      expect(await network.historyAgain(phone)).toBe(4);
      await client.until(() => notifications(client).length >= 8, 15_000, 'the chunks again');
      expect(notifications(client).slice(4).map(({ id }) => id)).toEqual(got.map(({ id }) => id));
    } finally {
      await client.end();
    }
  });

  it('chunks beyond a connection’s share come on the next connections; an ON_DEMAND request gets the older messages', async () => {
    const phone = newPhone();
    const friend = newPhone();
    const messages = Array.from({ length: 6 }, (_, index) => ({ id: `M${index}`, text: `message ${index}`, at: new Date(Date.now() - (10 - index) * 60_000) }));
    network.setHistory(phone, { chatsPerChunk: 1, messagesPerChat: 2, chunksPerConnection: 1, chats: [{ with: friend, messages }, { with: newPhone(), messages: [{ text: 'other', at: new Date(Date.now() - 20 * 60_000) }] }] });
    const client = await pairByQr(network, phone);
    try {
      await client.until(() => notifications(client).length >= 1, 15_000, 'the first chunk');
      const first = processHistoryMessage(await chunkOf(notifications(client)[0]!.notification));
      expect(notifications(client)).toHaveLength(1);

      const oldest = first.messages.at(-1)!;
      await client.sock.fetchMessageHistory(3, oldest.key, Number(oldest.messageTimestamp) * 1000);
      await network.waitFor(() => network.historyRequests(phone).length === 1);
      expect(network.historyRequests(phone)[0]).toMatchObject({ chat: `${friend}@s.whatsapp.net`, oldestMessageId: oldest.key.id, count: 3 });
      const onDemand = await client.until(
        () => notifications(client).find(({ notification }) => notification.syncType === Type.ON_DEMAND),
        15_000,
        'the on-demand chunk',
      );
      const older = processHistoryMessage(await chunkOf(onDemand.notification));
      expect(older.messages.map((message) => message.key.id)).toEqual(['M3', 'M2', 'M1']);
    } finally {
      await client.end();
    }
    const again = connectClient(network, client.auth);
    try {
      const next = await again.until(() => notifications(again).find(({ notification }) => notification.chunkOrder === 1), 15_000, 'the second chunk');
      expect(next.notification).toMatchObject({ syncType: Type.RECENT, progress: 100 });
    } finally {
      await again.end();
    }
  });

  it('the control API takes a past (text messages at ISO times), refuses a malformed one, and lists requests and blocks', async () => {
    const phone = newPhone();
    const post = (path: string, body: unknown) =>
      fetch(`${network.controlUrl}/control/phones/${phone}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const bad = await post('history', { chats: [{ with: newPhone(), messages: [{ text: 'when?', at: 'yesterday' }] }] });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('chats.0.messages.0.at');
    const good = await post('history', { chatsPerChunk: 1, chats: [{ with: newPhone(), messages: [{ text: 'then', at: new Date(Date.now() - DAY).toISOString(), fromMe: true }] }] });
    expect(good.status).toBe(200);
    expect((await good.json()).data).toEqual({ chats: 1 });
    expect((await (await post('history/again', {})).json()).data).toEqual({ handed: 0 });
    for (const path of ['history/requests', 'blocked']) {
      const listed = await fetch(`${network.controlUrl}/control/phones/${phone}/${path}`);
      expect((await listed.json()).data).toEqual([]);
    }
  });
});
