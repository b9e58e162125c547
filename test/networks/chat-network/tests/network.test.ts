import { randomBytes } from 'node:crypto';
import { BufferJSON, proto, WAMessageStatus, type WAMessage } from 'baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatNetwork, type ChatNetwork } from '../index.js';
import { connectClient, memoryAuth, pairByQr, recordingLogger, trustNetwork, type TestClient } from '../control/test-client.js';
import { phoneNumbers } from './linked-device.js';
import { startTcpProxy } from '../../../helpers/tcp-proxy.js';

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let network: ChatNetwork;
/** A phone number no other test uses. */
const newPhone = phoneNumbers('1555');
const jid = (phone: string) => `${phone}@s.whatsapp.net`;

/** Errors the client logs in a normal flow; the restart right after pairing is logged as one by the client itself. */
const unexpectedErrors = (records: { level: number; msg?: string }[]) =>
  records.filter((record) => record.level >= 50 && record.msg !== 'stream errored out');

const upserted = (client: TestClient, id: string) =>
  client.waitFor('messages.upsert', (update) => update.messages.some((message) => message.key.id === id));

const statusOf = (client: TestClient, id: string, status: number) =>
  client.until(() => client.statusOf(id) >= status, 15_000, `status ${status} of ${id}`);

beforeAll(async () => {
  network = await startChatNetwork();
  trustNetwork(network);
});

afterAll(async () => {
  await network?.close();
});

describe('linking a device', () => {
  it('pairs by QR, restarts (515) into a session, and logs in again later from a JSON snapshot without a QR', async () => {
    const phone = newPhone();
    const log = recordingLogger('warn');
    const client = await pairByQr(network, `+${phone}`, { logger: log.logger });
    expect(client.sock.user?.id).toBe(`${phone}:1@s.whatsapp.net`);
    expect(client.sock.user?.lid).toBe(`${network.lidOf(phone)}:1@lid`);
    expect(network.lidOf(phone)).not.toBe(phone);
    expect(client.auth.creds.account).toBeTruthy();
    await network.waitFor(() => network.devices().find((device) => device.phone === phone && device.connected));
    const snapshot = client.auth.snapshot();
    await client.end();
    await network.waitFor(() => network.devices().find((device) => device.phone === phone && !device.connected));

    const relog = recordingLogger('warn');
    const again = connectClient(network, memoryAuth(snapshot), { logger: relog.logger });
    await again.waitFor('connection.update', (update) => update.connection === 'open');
    await again.waitFor('connection.update', (update) => update.receivedPendingNotifications === true);
    expect(again.events.some((event) => event.name === 'connection.update' && (event.data as { qr?: string }).qr)).toBe(false);
    expect(network.loginAttempts(phone)).toHaveLength(2);
    await again.end();
    expect(unexpectedErrors(log.records)).toEqual([]);
    expect(unexpectedErrors(relog.records)).toEqual([]);
  });
});

describe('messages from a linked device', () => {
  let client: TestClient;
  let phone: string;
  const log = recordingLogger('warn');

  beforeAll(async () => {
    phone = newPhone();
    client = await pairByQr(network, phone, { logger: log.logger });
  });
  afterAll(async () => {
    await client?.end();
  });

  it('lands in the recipient phone once, also when the client sends the same id again', async () => {
    const to = newPhone();
    const sent = await client.sock.sendMessage(jid(to), { text: 'hello phone' });
    const [message] = await network.waitForInbox(to, 1);
    expect(message).toMatchObject({ id: sent!.key.id, from: phone, fromDevice: 1, type: 'text', text: 'hello phone' });
    expect(message!.chat).toBe(jid(to));

    await client.sock.relayMessage(jid(to), sent!.message!, { messageId: sent!.key.id! });
    await network.waitFor(() => network.received().filter((stanza) => stanza.id === sent!.key.id).length === 2);
    await network.waitFor(() => network.inbox(to).length === 1 && network.stats());
    expect(network.inbox(to)).toHaveLength(1);
    // The copy for the sender's own phone (its other device) is no inbox entry anywhere.
    expect(network.inbox(phone)).toEqual([]);
    const stanza = network.received().find((item) => item.id === sent!.key.id)!;
    expect(stanza).toMatchObject({ phone, deviceId: 1, to: jid(to) });
    expect(stanza.recipients.length).toBeGreaterThanOrEqual(2);
  });

  it('recovers through a retry receipt when the phone cannot decrypt (the sender lost its last session write)', async () => {
    const to = newPhone();
    await client.sock.sendMessage(jid(to), { text: 'one' });
    await network.waitForInbox(to, 1);
    const before = JSON.stringify(client.auth.data.session, BufferJSON.replacer);
    await client.sock.sendMessage(jid(to), { text: 'two' });
    await network.waitForInbox(to, 2);
    // As after a crash that lost the session update of "two": the next message reuses its chain key.
    client.auth.data.session = JSON.parse(before, BufferJSON.reviver);
    const third = await client.sock.sendMessage(jid(to), { text: 'three' });
    const inbox = await network.waitForInbox(to, 3);
    expect(inbox.map((message) => message.text)).toEqual(['one', 'two', 'three']);
    expect(network.received().filter((stanza) => stanza.id === third!.key.id).length).toBeGreaterThanOrEqual(2);
    await network.waitFor(() => network.received().filter((stanza) => stanza.id === third!.key.id).length >= 2);
    expect(network.inbox(to).filter((message) => message.id === third!.key.id)).toHaveLength(1);
  });

  it('carries media through the media host: the phone decrypts exactly the bytes sent', async () => {
    const to = newPhone();
    const document = randomBytes(20_000);
    const sent = await client.sock.sendMessage(jid(to), {
      document,
      mimetype: 'application/pdf',
      fileName: 'report.pdf',
      caption: 'the report',
    });
    const image = await client.sock.sendMessage(jid(to), { image: PNG_1PX, mimetype: 'image/png', caption: 'a pixel' });
    const [doc, pic] = await network.waitForInbox(to, 2);
    expect(doc).toMatchObject({ id: sent!.key.id, type: 'document', mimetype: 'application/pdf', fileName: 'report.pdf', caption: 'the report', mediaError: null });
    expect(doc!.bytes!.equals(document)).toBe(true);
    expect(pic).toMatchObject({ id: image!.key.id, type: 'image', caption: 'a pixel', mimetype: 'image/png' });
    expect(pic!.bytes!.equals(PNG_1PX)).toBe(true);
  });

  it('reports delivered, read and played back to the sending device', async () => {
    const to = newPhone();
    const sent = await client.sock.sendMessage(jid(to), { text: 'tick tick' });
    const id = sent!.key.id!;
    await network.waitForInbox(to, 1);
    await network.receipt(to, id, 'delivered');
    await statusOf(client, id, WAMessageStatus.DELIVERY_ACK);
    await network.receipt(to, id, 'read');
    await statusOf(client, id, WAMessageStatus.READ);
    await network.receipt(to, id, 'played');
    await statusOf(client, id, WAMessageStatus.PLAYED);
  });

  it('reports what the device read to the phone that sent it', async () => {
    const from = newPhone();
    const id = await network.send(from, phone, { text: 'read me' });
    const { messages } = await upserted(client, id);
    await client.sock.readMessages([messages.find((message) => message.key.id === id)!.key]);
    const receipts = await network.waitFor(() => {
      const list = network.receipts(from).filter((receipt) => receipt.messageId === id);
      return list.some((receipt) => receipt.type === 'read') && list;
    });
    expect(receipts.map((receipt) => receipt.type)).toEqual(['delivered', 'read']);
    expect(receipts[0]).toMatchObject({ from: phone, deviceId: 1 });
  });

  it('left the client without an error in its log', () => {
    expect(unexpectedErrors(log.records)).toEqual([]);
  });
});

describe('messages from phones', () => {
  let phone: string;
  let auth: ReturnType<typeof memoryAuth>;
  let client: TestClient;
  const log = recordingLogger('warn');

  beforeAll(async () => {
    phone = newPhone();
    client = await pairByQr(network, phone, { logger: log.logger });
    auth = client.auth;
  });
  afterAll(async () => {
    await client?.end();
  });

  it('arrive as a pre-key message first and as ordinary messages once the device has the session', async () => {
    const from = newPhone();
    const first = await network.send(from, phone, { text: 'hello device' }, { pushName: 'Alice' });
    const upsert = await upserted(client, first);
    const message = upsert.messages.find((item) => item.key.id === first)!;
    expect(upsert.type).toBe('notify');
    expect(message.message?.conversation).toBe('hello device');
    expect(message.key).toMatchObject({ remoteJid: jid(from), fromMe: false, remoteJidAlt: `${network.lidOf(from)}@lid` });
    expect(message.pushName).toBe('Alice');
    await network.waitFor(() => network.devices().find((device) => device.phone === phone)!.pending === 0);

    const second = await network.send(from, phone, { location: { latitude: 52.52, longitude: 13.405, name: 'Berlin', address: 'Mitte' } });
    const located = (await upserted(client, second)).messages.find((item) => item.key.id === second)!;
    expect(located.message?.locationMessage).toMatchObject({ degreesLatitude: 52.52, degreesLongitude: 13.405, name: 'Berlin', address: 'Mitte' });
    const types = network.deliveries().filter((item) => item.id === first || item.id === second).map((item) => item.encType);
    expect(types).toEqual(['pkmsg', 'msg']);
  });

  it('are held while the device is offline and delivered at its next login, as offline messages', async () => {
    const from = newPhone();
    await client.end();
    const id = await network.send(from, phone, { text: 'while you were away' });
    expect(network.devices().find((device) => device.phone === phone)).toMatchObject({ connected: false, pending: 1 });
    client = connectClient(network, auth, { logger: log.logger });
    const upsert = await upserted(client, id);
    expect(upsert.type).toBe('append');
    expect(upsert.messages.find((item) => item.key.id === id)!.message?.conversation).toBe('while you were away');
    await client.waitFor('connection.update', (update) => update.receivedPendingNotifications === true);
    expect(network.deliveries().find((item) => item.id === id)).toMatchObject({ offline: true });
    await network.waitFor(() => network.devices().find((device) => device.phone === phone)!.pending === 0);
  });

  it('are delivered again after a reconnect when the device never acknowledged them', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(network.url).port) });
    try {
      await client.end();
      const url = `ws://127.0.0.1:${proxy.port}/ws/chat`;
      client = connectClient({ ...network, url }, auth, { logger: log.logger });
      await client.waitFor('connection.update', (update) => update.connection === 'open');
      await client.waitFor('connection.update', (update) => update.receivedPendingNotifications === true);
      // A round trip after the login queries: their answers are in before the line goes quiet.
      await client.sock.query({ tag: 'iq', attrs: { to: 's.whatsapp.net', type: 'get', xmlns: 'w:p' }, content: [{ tag: 'ping', attrs: {} }] });
      proxy.stall();
      const from = newPhone();
      const id = await network.send(from, phone, { text: 'lost on the way' });
      await network.waitFor(() => network.deliveries().some((item) => item.id === id));
      proxy.cut();
      await client.closed;
      expect(network.devices().find((device) => device.phone === phone)!.pending).toBe(1);
      proxy.restore();
      client = connectClient({ ...network, url }, auth, { logger: log.logger });
      const upsert = await upserted(client, id);
      expect(upsert.messages.find((item) => item.key.id === id)!.message?.conversation).toBe('lost on the way');
      expect(network.deliveries().filter((item) => item.id === id).map((item) => item.offline)).toEqual([false, true]);
      await client.end();
      client = connectClient(network, auth, { logger: log.logger });
      await client.waitFor('connection.update', (update) => update.connection === 'open');
    } finally {
      await proxy.close();
    }
  });

  it('can be deleted for everyone by the phone that sent them', async () => {
    const from = newPhone();
    const id = await network.send(from, phone, { text: 'oops' });
    await upserted(client, id);
    await network.revoke(from, id, phone);
    const updates = await client.waitFor('messages.update', (items) => items.some((item) => item.key.id === id));
    const update = updates.find((item) => item.key.id === id)!;
    expect(update.update.message).toBeNull();
    expect(update.update.messageStubType).toBe(proto.WebMessageInfo.StubType.REVOKE);
    await expect(network.revoke(from, 'NOT-SENT', phone)).rejects.toMatchObject({ status: 404 });
  });

  it('reach every linked device of the account', async () => {
    const second = await pairByQr(network, phone);
    try {
      expect(second.sock.user?.id).toBe(`${phone}:2@s.whatsapp.net`);
      const from = newPhone();
      const id = await network.send(from, phone, { text: 'to both' });
      const [one, two] = await Promise.all([upserted(client, id), upserted(second, id)]);
      const text = (update: { messages: WAMessage[] }) => update.messages.find((item) => item.key.id === id)!.message?.conversation;
      expect([text(one), text(two)]).toEqual(['to both', 'to both']);
    } finally {
      await second.end();
    }
  });

  it('left the client without an error in its log', () => {
    expect(unexpectedErrors(log.records)).toEqual([]);
  });

  it('are sent again by the phone when the device cannot decrypt them (retry receipt)', async () => {
    const from = newPhone();
    const first = await network.send(from, phone, { text: 'before' });
    await upserted(client, first);
    await network.waitFor(() => network.devices().find((device) => device.phone === phone)!.pending === 0);
    // The device loses its session with that phone (a store rolled back): the next message cannot be read.
    const lid = network.lidOf(from);
    for (const key of Object.keys(auth.data.session ?? {})) if (key.startsWith(`${lid}_`)) delete auth.data.session![key];
    const second = await network.send(from, phone, { text: 'after' });
    const recovered = await client.waitFor('messages.upsert', (update) =>
      update.messages.some((message) => message.key.id === second && message.message?.conversation === 'after'),
    );
    expect(recovered.messages.find((message) => message.key.id === second)!.message?.conversation).toBe('after');
    const copies = network.deliveries().filter((item) => item.id === second);
    expect(copies.map((item) => item.encType)).toEqual(['msg', 'pkmsg']);
  });
});
