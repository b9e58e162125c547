import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysEnv, newNetworkPhone, pairedSession, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { insertInstance } from '../../../factories/instances.js';
import { createTenant } from '../../../factories/tenants.js';
import { startTestGateway } from '../../../kit/gateway.js';
import { client, failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { type ChatNetwork, startChatNetwork } from '../../../networks/chat-network/index.js';
import { decodeQr } from '../../../../src/infra/qr-decode.js';

const PNG = Buffer.concat([
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
  // Bytes a picture may carry after its end: they must arrive too, byte for byte.
  randomBytes(4096),
]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(MODES)('CHAT-BAILEYS against the local chat network — $name', (mode) => {
  const world = baileysWorld(mode, {
    files: {
      '/picture.png': { type: 'image/png', body: PNG },
      '/huge.png': { type: 'image/png', body: Buffer.alloc(16 * 1024 * 1024 + 1) },
      '/page.html': { type: 'text/html', body: '<p>not a picture</p>' },
    },
  });

  const hooksOf = (instanceId: string, event: string) =>
    world.receiver.received.filter((call) => call.headers['x-webhook-event'] === event && JSON.parse(call.body).instanceId === instanceId || (call.headers['x-webhook-event'] === event && JSON.parse(call.body).instance?.instanceId === instanceId)).map((call) => JSON.parse(call.body));
  const statusOf = async (messageId: string) => (await world.api.get(`/v1/messages/status/${messageId}`, { key: world.tenant.liveKey })).body.data;
  const engineRows = (instanceId: string) => world.gw.gateway.infra.db.prisma.engineKey.count({ where: { instanceId } });
  /** A key store as a node makes it, over the gateway's database (or `statements` standing in for it), with nothing cached. */
  const stateStore = async (statements = world.gw.gateway.infra.db.statements) => {
    const { db, config } = world.gw.gateway.infra;
    const { openStateKey } = await import('../../../../src/engines/state/state-key.js');
    const { createEngineStateStore } = await import('../../../../src/engines/baileys/auth-state.js');
    const cipher = await openStateKey({ configured: config.ENGINE_STATE_KEY, embedded: mode.database === 'pglite', dataDir: config.DATA_DIR, statements: db.statements });
    return createEngineStateStore({ statements, cipher, cacheBytes: 1024 * 1024, writesInFlight: 1 });
  };
  /** A never-paired instance of a new tenant, held by another node's lease written here (no node here owns it). */
  const heldElsewhere = async (token: number) => {
    const own = await createTenant(world.gw.gateway, world.api);
    const { id } = await insertInstance(world.gw.gateway, own.tenantId, { state: 'created' });
    await world.gw.gateway.infra.db.prisma.$executeRaw`INSERT INTO "InstanceLease" ("instanceId", owner, token, "expiresAt") VALUES (${id}::uuid, 'elsewhere', ${token}, now() + interval '1 hour')`;
    return { id, lease: { instanceId: id, node: 'elsewhere', token: String(token) } };
  };

  it('pairs by the QR code of the v1 create answer: connected with the phone, on CHAT-BAILEYS', async () => {
    const { id, phone } = await pairedV1(world.api, world.tenant.liveKey, world.network, `v1 qr ${Date.now()}`);
    const detail = await world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey });
    expect(detail.body.data).toMatchObject({ status: 'connected', phoneNumber: phone, integration: 'CHAT-BAILEYS', lastDisconnect: null });
    expect(world.network.devices().filter((d) => `+${d.phone}` === phone && d.connected)).toHaveLength(1);
    // The linked device's state is in the database, and only sealed.
    expect(await engineRows(id)).toBeGreaterThan(100);
  });

  // The 440 case is watched for 30 s: it starts here and is judged by the file's last test, so the
  // other tests run during the watch instead of after it.
  let replaced: { phone: string; since: number } | undefined;
  it('replaced by another connection (440): disconnected, with the reason', async () => {
    const { id, phone } = await pairedV1(world.api, world.tenant.liveKey, world.network, `replaced ${Date.now()}`);
    const since = Date.now();
    world.network.streamError(phone, 440);
    const down = await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'disconnected');
    expect(down.body.data.lastDisconnect).toEqual({ reason: 'replaced', at: expect.any(String) });
    replaced = { phone, since };
  });

  it('pairs by the QR code a session instance shows, and by a pairing code the phone enters', async () => {
    await pairedSession(world.api, world.tenant.cookie, world.network, `session qr ${Date.now()}`);

    const created = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `by code ${Date.now()}` } });
    const id = created.body.data.instanceId;
    const phone = newNetworkPhone();
    const asked = await world.api.post(`/chat/instances/${id}/pairing-code`, { cookie: world.tenant.cookie, body: { phone } });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body.data.code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    // A wrong code pairs nothing; the right one, typed with a dash, does.
    await expect(world.network.enterPairingCode('ABCD2345', phone)).rejects.toThrow();
    await world.network.enterPairingCode(`${asked.body.data.code.slice(0, 4)}-${asked.body.data.code.slice(4)}`, phone);
    const detail = await eventually(() => world.api.get(`/chat/instances/${id}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'connected', 20_000);
    expect(detail.body.data).toMatchObject({ phone, integration: 'CHAT-BAILEYS' });
  });

  it('sends a routed message and a send-text to the recipient exactly once, with [TEST] for a test key; sent once the network acknowledges', async () => {
    const own = await createTenant(world.gw.gateway, world.api);
    const { id, phone } = await pairedV1(world.api, own.liveKey, world.network, 'carrier');
    const to = newNetworkPhone().slice(1);
    const routed = await world.api.post('/v1/messages/send', { key: own.testKey, body: { to, text: 'Your order shipped' } });
    expect(routed.status).toBe(200);
    const session = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: own.cookie, body: { to, message: 'Hello from support' } });
    expect(session.status).toBe(200);
    const inbox = await world.network.waitForInbox(to, 2);
    expect(inbox.map((m) => [m.from, m.text])).toEqual([
      [phone.slice(1), '[TEST] Your order shipped'],
      [phone.slice(1), 'Hello from support'],
    ]);
    const sent = await eventually(() => world.api.get(`/v1/messages/status/${routed.body.data.id}`, { key: own.liveKey }), (r) => r.body.data.status === 'sent');
    expect(sent.body.data).toMatchObject({ networkMessageId: inbox[0]!.id, from: phone.slice(1), mode: 'test' });
    // Handed over once each: one stanza per message reached the network.
    for (const message of inbox) expect(world.network.received().filter((stanza) => stanza.id === message.id)).toHaveLength(1);
  });

  it('sends media as bytes it fetched itself: the phone decrypts exactly the source', async () => {
    const { id } = await pairedSession(world.api, world.tenant.cookie, world.network, `media ${Date.now()}`);
    const to = newNetworkPhone().slice(1);
    const sent = await world.api.post(`/chat/instances/${id}/send-media`, {
      cookie: world.tenant.cookie,
      body: { to, mediaUrl: `${world.files.url}/picture.png`, mediaType: 'image', caption: 'the picture' },
    });
    expect(sent.status, sent.text).toBe(200);
    const [received] = await world.network.waitForInbox(to, 1);
    expect(received).toMatchObject({ type: 'image', caption: 'the picture', mimetype: 'image/png', mediaError: null });
    expect(sha256(received!.bytes!)).toBe(sha256(PNG));
    await eventually(() => statusOf(sent.body.data.id), (m) => m.status === 'sent');
  });

  it('refuses media it cannot send with 400 before anything reaches the network: oversized, the wrong type, not found', async () => {
    const { id, phone } = await pairedSession(world.api, world.tenant.cookie, world.network, `bad media ${Date.now()}`);
    const before = world.network.received().filter((stanza) => `+${stanza.phone}` === phone).length;
    for (const [mediaPath, mediaType] of [['/huge.png', 'image'], ['/page.html', 'image'], ['/missing.png', 'image'], ['/picture.png', 'video']]) {
      const refused = await world.api.post(`/chat/instances/${id}/send-media`, {
        cookie: world.tenant.cookie,
        body: { to: newNetworkPhone().slice(1), mediaUrl: `${world.files.url}${mediaPath}`, mediaType },
      });
      expect(refused.status, `${mediaPath} as ${mediaType}`).toBe(400);
      expect(refused.body).toEqual(failure('invalid_request'));
      expect(refused.body.error.message).toMatch(/^mediaUrl: /);
    }
    expect(world.network.received().filter((stanza) => `+${stanza.phone}` === phone)).toHaveLength(before);
  });

  it('turns delivered and read receipts into statuses and messages.update webhooks (a read may come without delivered)', async () => {
    // A tenant of its own: routed sends go through its one instance.
    const own = await createTenant(world.gw.gateway, world.api);
    const statusOf = async (messageId: string) => (await world.api.get(`/v1/messages/status/${messageId}`, { key: own.liveKey })).body.data;
    const { id } = await pairedV1(world.api, own.liveKey, world.network, 'receipts');
    const hooked = await world.api.post(`/v1/chat/instances/${id}/webhook`, { key: own.liveKey, body: { url: `${world.receiver.url}/hooks` } });
    expect(hooked.status, hooked.text).toBe(200);
    const to = newNetworkPhone().slice(1);
    const first = await world.api.post('/v1/messages/send', { key: own.liveKey, body: { to, text: 'one' } });
    const second = await world.api.post(`/v1/messages/send`, { key: own.liveKey, body: { to, text: 'two' } });
    const inbox = await world.network.waitForInbox(to, 2);
    await eventually(() => statusOf(second.body.data.id), (m) => m.status === 'sent');
    await world.network.receipt(to, inbox[0]!.id, 'delivered');
    await eventually(() => statusOf(first.body.data.id), (m) => m.status === 'delivered');
    await world.network.receipt(to, inbox[0]!.id, 'read');
    // Straight to read, as a phone with the chat open reports it.
    await world.network.receipt(to, inbox[1]!.id, 'read');
    for (const { body } of [first, second]) {
      const read = await eventually(() => statusOf(body.data.id), (m) => m.status === 'read');
      // Read implies delivered: a phone with the chat open reports no delivery.
      expect(read.timestamps).toMatchObject({ delivered: expect.any(String), read: expect.any(String) });
    }
    const updates = await eventually(async () => hooksOf(id, 'messages.update'), (list) => list.filter((u) => u.data.status === 'read').length === 2);
    expect(updates.filter((u) => u.data.messageId === first.body.data.id).map((u) => u.data.status)).toEqual(['sent', 'delivered', 'read']);
    expect(updates.filter((u) => u.data.messageId === second.body.data.id).map((u) => u.data.status)).toEqual(['sent', 'read']);
  });

  it('turns inbound text and location into messages.upsert, in the v1 and the session envelope; a revoke into messages.delete', async () => {
    const v1 = await pairedV1(world.api, world.tenant.liveKey, world.network, `inbound v1 ${Date.now()}`);
    await world.api.post(`/v1/chat/instances/${v1.id}/webhook`, { key: world.tenant.liveKey, body: { url: `${world.receiver.url}/v1` } });
    const session = await pairedSession(world.api, world.tenant.cookie, world.network, `inbound session ${Date.now()}`, undefined, { webhookUrl: `${world.receiver.url}/session` });
    const contact = newNetworkPhone().slice(1);
    const text = await world.network.send(contact, v1.phone, { text: 'Oi! Tudo bem?' }, { pushName: 'Ana' });
    await world.network.send(contact, session.phone, { location: { latitude: -23.55, longitude: -46.63, name: 'Paulista' } }, { pushName: 'Ana' });

    const [v1Upsert] = await eventually(async () => hooksOf(v1.id, 'messages.upsert'), (list) => list.length === 1);
    expect(v1Upsert).toEqual({
      event: 'messages.upsert',
      instanceId: v1.id,
      timestamp: expect.any(String),
      data: { messageId: expect.any(String), from: contact, to: v1.phone.slice(1), fromMe: false, type: 'text', text: 'Oi! Tudo bem?', timestamp: expect.any(String) },
    });
    const [sessionUpsert] = await eventually(async () => hooksOf(session.id, 'messages.upsert'), (list) => list.length === 1);
    expect(sessionUpsert).toMatchObject({
      event: 'messages.upsert',
      instance: { instanceId: session.id },
      data: { key: { remoteJid: `${contact}@s.whatsapp.net`, fromMe: false }, messageType: 'locationMessage', pushName: 'Ana', message: { location: { latitude: -23.55, longitude: -46.63, name: 'Paulista' } } },
    });
    const stored = await world.api.get(`/v1/messages/status/${v1Upsert.data.messageId}`, { key: world.tenant.liveKey });
    expect(stored.body.data).toMatchObject({ direction: 'in', networkMessageId: text, from: contact, text: 'Oi! Tudo bem?' });

    await world.network.revoke(contact, text, v1.phone);
    const [deleted] = await eventually(async () => hooksOf(v1.id, 'messages.delete'), (list) => list.length === 1);
    expect(deleted.data).toEqual({ messageId: v1Upsert.data.messageId, deletedBy: contact, forEveryone: true });
  });

  it('after a lost connection (408) comes back connected by itself; what was accepted meanwhile arrives once, in order', async () => {
    const own = await createTenant(world.gw.gateway, world.api);
    const { id, phone } = await pairedV1(world.api, own.liveKey, world.network, 'flaky');
    const to = newNetworkPhone().slice(1);
    expect(world.network.streamError(phone, 408)).toBe(1);
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: own.liveKey }), (r) => r.body.data.status !== 'connected');
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await world.api.post('/v1/messages/send', { key: own.liveKey, body: { to, text: `meanwhile ${n}` } })).body.data.id);
    const back = await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: own.liveKey }), (r) => r.body.data.status === 'connected', 20_000);
    expect(back.body.data.lastDisconnect).toEqual({ reason: 'connection_lost', at: expect.any(String) });
    const inbox = await world.network.waitForInbox(to, 5);
    expect(inbox.map((m) => m.text)).toEqual([0, 1, 2, 3, 4].map((n) => `meanwhile ${n}`));
    for (const messageId of ids) await eventually(async () => (await world.api.get(`/v1/messages/status/${messageId}`, { key: own.liveKey })).body.data.status, (s) => s === 'sent');
  });

  it('restarts at once on 515, without ever showing disconnected', async () => {
    const { id, phone } = await pairedSession(world.api, world.tenant.cookie, world.network, `restart ${Date.now()}`);
    const logins = world.network.loginAttempts(phone).length;
    world.network.streamError(phone, 515);
    await eventually(async () => world.network.loginAttempts(phone).length, (n) => n > logins);
    await eventually(async () => world.network.devices().some((d) => `+${d.phone}` === phone && d.connected), (connected) => connected);
    const events = await world.gw.gateway.infra.db.prisma.outboxEvent.findMany({ where: { instanceId: id, event: 'connection.update' }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => (e.data as { status: string }).status)).not.toContain('disconnected');
    expect((await world.api.get(`/chat/instances/${id}`, { cookie: world.tenant.cookie })).body.data).toMatchObject({ status: 'connected', lastDisconnect: null });
  });

  it('logged out by the phone (401): disconnected, its state erased, a new QR needed', async () => {
    const { id, phone } = await pairedV1(world.api, world.tenant.liveKey, world.network, `logged out ${Date.now()}`);
    world.network.streamError(phone, 401);
    const out = await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'disconnected');
    expect(out.body.data).toMatchObject({ phoneNumber: null, lastDisconnect: { reason: 'logged_out' } });
    await eventually(() => engineRows(id), (n) => n === 0);
    const [update] = (await world.gw.gateway.infra.db.prisma.outboxEvent.findMany({ where: { instanceId: id, event: 'connection.update' }, orderBy: { seq: 'desc' }, take: 1 })).map((e) => e.data);
    // The phone is no longer linked: none in the event either.
    expect(update).toEqual({ status: 'disconnected', phoneNumber: null, reason: 'logged_out' });
    void phone;
    // Pairing again: a new code from the network.
    const qr = await world.api.get(`/v1/chat/instances/${id}/qr`, { key: world.tenant.liveKey });
    expect(qr.status).toBe(200);
    expect(decodeQr(qr.body.data.qrCode)).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#/);
  });

  it('banned by the network (403): banned, and it stays so', async () => {
    const { id, phone } = await pairedSession(world.api, world.tenant.cookie, world.network, `banned ${Date.now()}`);
    world.network.streamError(phone, 403);
    const banned = await eventually(() => world.api.get(`/chat/instances/${id}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'banned');
    expect(banned.body.data.lastDisconnect).toEqual({ reason: 'banned', at: expect.any(String) });
    const logins = world.network.loginAttempts(phone).length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(world.network.loginAttempts(phone)).toHaveLength(logins);
  });

  it('hands 100 concurrent sends through one instance to the phone once each, each sender\'s in the order it sent them', async () => {
    const own = await createTenant(world.gw.gateway, world.api, 'enterprise');
    const { id } = await pairedSession(world.api, own.cookie, world.network, 'busy');
    const to = newNetworkPhone().slice(1);
    // Ten senders at once, each sending its ten messages one after the other: a message answered
    // before the next was sent must reach the phone before it.
    await Promise.all(
      Array.from({ length: 10 }, async (_, sender) => {
        for (let n = 0; n < 10; n++) {
          const answer = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: own.cookie, body: { to, message: `sender ${sender} #${n}` } });
          expect(answer.status).toBe(200);
        }
      }),
    );
    const inbox = await world.network.waitForInbox(to, 100, 60_000);
    expect(new Set(inbox.map((m) => m.text)).size).toBe(100);
    for (let sender = 0; sender < 10; sender++) {
      const mine = inbox.map((m) => m.text!).filter((text) => text.startsWith(`sender ${sender} #`));
      expect(mine).toEqual(Array.from({ length: 10 }, (_, n) => `sender ${sender} #${n}`));
    }
    for (const message of inbox) expect(world.network.received().filter((stanza) => stanza.id === message.id)).toHaveLength(1);
  }, 90_000);

  it('sends first messages from several instances to the same new contacts at once: each is encrypted in its own session and arrives', async () => {
    // Every instance sets up a session with each contact in the same moment. The signal library runs
    // the encryptions for one contact one after another, whichever instance they are for: each must
    // still see its own instance's session, set up a moment before and not yet written.
    const own = await createTenant(world.gw.gateway, world.api, 'enterprise');
    const lines = await Promise.all([0, 1, 2, 3].map((n) => pairedSession(world.api, own.cookie, world.network, `shared contacts ${n}`)));
    const contacts = [0, 1, 2].map(() => newNetworkPhone().slice(1));
    await Promise.all(
      lines.flatMap(({ id }, line) =>
        contacts.flatMap((to, contact) =>
          [0, 1, 2, 3, 4].map(async (n) => {
            const answer = await world.api.post(`/chat/instances/${id}/send-text`, { cookie: own.cookie, body: { to, message: `line ${line} to ${contact} #${n}` } });
            expect(answer.status).toBe(200);
          }),
        ),
      ),
    );
    for (const [contact, to] of contacts.entries()) {
      const inbox = await world.network.waitForInbox(to, lines.length * 5, 60_000);
      expect(inbox.map((m) => m.text).sort()).toEqual(lines.flatMap((_, line) => [0, 1, 2, 3, 4].map((n) => `line ${line} to ${contact} #${n}`)).sort());
    }
  }, 90_000);

  it('lets go of a device at once when another node takes the instance, and refuses every state write under the stale lease', async () => {
    const { id, phone } = await pairedV1(world.api, world.tenant.liveKey, world.network, `taken ${Date.now()}`);
    const { prisma } = world.gw.gateway.infra.db;
    const stale = world.gw.gateway.infra.placement.ownership.leaseOf(id)!;
    expect(stale).toBeDefined();
    // Another node takes the instance over (as after this one was frozen past its lease).
    await prisma.$executeRaw`UPDATE "InstanceLease" SET owner = 'another-node', token = token + 1 WHERE "instanceId" = ${id}::uuid`;
    await eventually(async () => world.network.devices().some((d) => `+${d.phone}` === phone && d.connected), (connected) => !connected, 10_000);
    const store = await stateStore();
    const before = await prisma.engineKey.findMany({ where: { instanceId: id }, orderBy: [{ type: 'asc' }, { id: 'asc' }] });
    let lost = false;
    await expect(store.keysFor(id, stale, () => (lost = true)).set({ session: { 'stale.0': null }, 'pre-key': { '1': null } })).rejects.toThrow(/no longer owns/);
    expect(lost).toBe(true);
    await expect(store.erase(id, stale)).rejects.toThrow(/no longer owns/);
    const after = await prisma.engineKey.findMany({ where: { instanceId: id }, orderBy: [{ type: 'asc' }, { id: 'asc' }] });
    expect(after.map((row) => [row.type, row.id, Buffer.from(row.value).toString('hex')])).toEqual(before.map((row) => [row.type, row.id, Buffer.from(row.value).toString('hex')]));
    // Still readable by whoever holds the instance next: the creds open with the key.
    expect((await store.readCreds(id))?.me?.id).toMatch(new RegExp(`^${phone.slice(1)}`));
  });

  it('writes the state of several instances that arrive together in one statement, each only under its own lease; checks their leases so too', async () => {
    const { db } = world.gw.gateway.infra;
    const own = await createTenant(world.gw.gateway, world.api);
    // Instances no node here needs to own (never paired), held by another node's leases written here.
    const [a, b, c] = (await Promise.all([0, 1, 2].map(() => insertInstance(world.gw.gateway, own.tenantId, { state: 'created' })))).map((row) => row.id) as [string, string, string];
    for (const id of [a, b, c]) {
      await db.prisma.$executeRaw`INSERT INTO "InstanceLease" ("instanceId", owner, token, "expiresAt") VALUES (${id}::uuid, 'elsewhere', 100, now() + interval '1 hour')`;
    }
    const lease = (instanceId: string, token: number) => ({ instanceId, node: 'elsewhere', token: String(token) });
    let keyWrites = 0;
    const statements = { ...db.statements, run: ((text: string, params?: readonly unknown[]) => {
      if (text.includes('INSERT INTO "EngineKey"')) keyWrites++;
      return db.statements.run(text, params);
    }) as typeof db.statements.run };
    const store = await stateStore(statements);
    const lost: string[] = [];
    const keysOf = (id: string, token: number) => store.keysFor(id, lease(id, token), () => lost.push(id));
    const outcomes = await Promise.allSettled([
      keysOf(a, 100).set({ session: { 'peer.0': Buffer.from('first') } } as never),
      keysOf(b, 100).set({ 'sender-key-memory': { group: { peer: true } } }),
      // The same value again, later in the same group: the later call's is what is kept.
      keysOf(a, 100).set({ session: { 'peer.0': Buffer.from('second') } } as never),
      // A lease another node took since (its token moved on): nothing of this instance is written.
      keysOf(c, 99).set({ session: { 'peer.0': Buffer.from('stale') } } as never),
      // A write under an instance's earlier lease, beside one under its current lease: only the current one lands.
      keysOf(b, 99).set({ session: { 'peer.1': Buffer.from('stale') } } as never),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/no longer owns/);
    expect(lost).toEqual([c, b]);
    expect(keyWrites).toBe(1);
    // Read back by a store with nothing cached, as the next owner would.
    const fresh = await stateStore();
    const session = await fresh.keysFor(a, lease(a, 100), () => {}).get('session', ['peer.0']);
    expect(Buffer.from(session['peer.0'] as unknown as Uint8Array).toString()).toBe('second');
    expect(await fresh.keysFor(b, lease(b, 100), () => {}).get('sender-key-memory', ['group'])).toEqual({ group: { peer: true } });
    expect(await db.prisma.engineKey.count({ where: { instanceId: c } })).toBe(0);
    expect(await db.prisma.engineKey.count({ where: { instanceId: b, type: 'session' } })).toBe(0);

    // The lease checks before hand-offs that arrive together are one statement too, each answered for its own lease.
    let leaseChecks = 0;
    const checking = await stateStore({ ...db.statements, run: ((text: string, params?: readonly unknown[]) => {
      if (text.includes('"expiresAt" > now()')) leaseChecks++;
      return db.statements.run(text, params);
    }) as typeof db.statements.run });
    await db.prisma.$executeRaw`UPDATE "InstanceLease" SET "expiresAt" = now() - interval '1 second' WHERE "instanceId" = ${b}::uuid`;
    expect(await Promise.all([checking.holds(lease(a, 100)), checking.holds(lease(a, 99)), checking.holds(lease(b, 100)), checking.holds(lease(c, 100))])).toEqual([true, false, false, true]);
    expect(leaseChecks).toBe(1);
  });

  it('never lets a read that was under way while a write committed put the older value back in the cache', async () => {
    const { db } = world.gw.gateway.infra;
    const { id, lease } = await heldElsewhere(3);
    await (await stateStore()).keysFor(id, lease, () => {}).set({ session: { 'peer.0': Buffer.from('older') } } as never);
    // A store with nothing cached, whose read of the key answers only once the test lets it: what it read is the older value.
    let readDone!: () => void;
    const readTaken = new Promise<void>((resolve) => (readDone = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const statements = { ...db.statements, run: (async (text: string, params?: readonly unknown[]) => {
      const rows = await db.statements.run(text, params);
      if (text.includes('SELECT id, value FROM "EngineKey"')) {
        readDone();
        await answered;
      }
      return rows;
    }) as typeof db.statements.run };
    const keys = (await stateStore(statements)).keysFor(id, lease, () => {});
    const text = (value: unknown) => Buffer.from(value as Uint8Array).toString();
    const reading = keys.get('session', ['peer.0']);
    await readTaken;
    await keys.set({ session: { 'peer.0': Buffer.from('newer') } } as never);
    answer();
    // The read in flight answers the newer value, and so does every read after it.
    expect(text((await reading)['peer.0'])).toBe('newer');
    expect(text((await keys.get('session', ['peer.0']))['peer.0'])).toBe('newer');
  });

  it('never stores the library\'s list of contacts with a trusted-contact token: a read answers it from the tokens stored', async () => {
    const { db } = world.gw.gateway.infra;
    const { id, lease } = await heldElsewhere(7);
    const keysOf = async () => (await stateStore()).keysFor(id, lease, () => {});
    const keys = await keysOf();
    const token = (senderTimestamp: number) => ({ token: Buffer.alloc(0), senderTimestamp });
    const indexOf = async (store: typeof keys) => JSON.parse(Buffer.from((await store.get('tctoken', ['__index']))['__index']!.token).toString()) as string[];
    expect(await indexOf(keys)).toEqual([]);
    // As the library writes it: the tokens with the whole list beside them.
    await keys.set({ tctoken: { '111@lid': token(1), '222@lid': token(2), __index: { token: Buffer.from(JSON.stringify(['111@lid', '222@lid', 'stale@lid'])) } } });
    await keys.set({ tctoken: { '333@lid': token(3), __index: { token: Buffer.from(JSON.stringify(['111@lid', '222@lid', '333@lid'])) } } });
    const stored = await db.prisma.engineKey.findMany({ where: { instanceId: id, type: 'tctoken' }, select: { id: true }, orderBy: { id: 'asc' } });
    expect(stored.map((row) => row.id)).toEqual(['111@lid', '222@lid', '333@lid']);
    // A store with nothing cached (the next connection) reads the list, and the tokens beside it, as written.
    const fresh = await keysOf();
    expect(await indexOf(fresh)).toEqual(['111@lid', '222@lid', '333@lid']);
    const both = await fresh.get('tctoken', ['__index', '222@lid']);
    expect(Object.keys(both).sort()).toEqual(['222@lid', '__index']);
    expect(both['222@lid']).toMatchObject({ senderTimestamp: 2 });
    // A pruned token leaves the list with it.
    await fresh.set({ tctoken: { '111@lid': null, __index: { token: Buffer.from(JSON.stringify(['222@lid', '333@lid'])) } } });
    expect(await indexOf(await keysOf())).toEqual(['222@lid', '333@lid']);
  });

  it('keeps the engine state only sealed: no stored value reads as the library\'s data, and none opens under another key', async () => {
    const { id } = await pairedV1(world.api, world.tenant.liveKey, world.network, `sealed ${Date.now()}`);
    const rows = await world.gw.gateway.infra.db.prisma.engineKey.findMany({ where: { instanceId: id } });
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      const text = Buffer.from(row.value).toString('latin1');
      expect(text).not.toMatch(/noiseKey|signedIdentityKey|"private"|"public"|Buffer|registrationId/);
    }
    const { createStateCipher } = await import('../../../../src/engines/state/state-cipher.js');
    const stranger = createStateCipher(randomBytes(32));
    expect(() => stranger.open(rows[0]!.value, `${id}/${rows[0]!.type}/${rows[0]!.id}`)).toThrow();
  });

  it('replaced by another connection (440): at most 3 connection attempts in the 30 s after', { timeout: 60_000 }, async () => {
    expect(replaced, 'the 440 case ran').toBeDefined();
    const { phone, since } = replaced!;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - since))));
    const attempts = world.network.loginAttempts(phone).filter((at) => at >= since && at <= since + 30_000);
    expect(attempts.length).toBeLessThanOrEqual(3);
  });
});

describe.each(MODES)('CHAT-BAILEYS across restarts — $name', (mode) => {
  let network: ChatNetwork;
  beforeAll(async () => {
    network = await startChatNetwork();
  });
  afterAll(() => network?.close());

  it('comes back connected after a restart without pairing, and a logged-out instance does not reconnect', { timeout: 90_000 }, async () => {
    const env = baileysEnv(network, mode);
    const first = await startTestGateway(mode, { env });
    let api = client(first.url);
    const tenant = await createTenant(first.gateway, api);
    const kept = await pairedV1(api, tenant.liveKey, network, 'kept');
    const gone = await pairedV1(api, tenant.liveKey, network, 'gone');
    const out = await api.post(`/chat/instances/${gone.id}/disconnect`, { cookie: tenant.cookie });
    expect(out.body.data).toEqual({ id: gone.id, status: 'disconnected' });
    await eventually(() => first.gateway.infra.db.prisma.engineKey.count({ where: { instanceId: gone.id } }), (n) => n === 0);
    // The network was told: the device is gone from the phone's linked devices.
    await eventually(async () => network.devices().find((d) => `+${d.phone}` === gone.phone)?.loggedOut, (loggedOut) => loggedOut === true);
    const goneLogins = network.loginAttempts(gone.phone).length;
    await first.gateway.close();

    const second = await startTestGateway(mode, { env, reuse: first });
    api = client(second.url);
    try {
      const back = await eventually(() => api.get(`/v1/chat/instances/${kept.id}`, { key: tenant.liveKey }), (r) => r.body.data.status === 'connected', 20_000);
      expect(back.body.data.phoneNumber).toBe(kept.phone);
      const to = newNetworkPhone().slice(1);
      await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: 'after the restart' } });
      expect((await network.waitForInbox(to, 1))[0]!.text).toBe('after the restart');
      expect((await api.get(`/v1/chat/instances/${gone.id}`, { key: tenant.liveKey })).body.data).toMatchObject({ status: 'disconnected', phoneNumber: null });
      expect(network.loginAttempts(gone.phone)).toHaveLength(goneLogins);
    } finally {
      await second.close();
      // Its gateway was closed above; this drops its database.
      await first.close().catch(() => {});
    }
  });
});
