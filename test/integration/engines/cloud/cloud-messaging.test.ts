// CHAT-CLOUD's messaging surface (docs/messaging.md): each documented kind, read marks and typing reach
// the local business API with the documented body; what the API lacks is 422 not_supported, with
// nothing stored and nothing asked of the API.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import type { CloudApi, ReceivedSend } from '../../../networks/cloud-api/index.js';
import { cloudWorld } from '../../../kit/worlds/cloud.js';
import { oggOpus, PNG_1PX } from '../../../kit/files.js';

/** Bytes the file host serves as a sticker (the gateway checks the content type it announces). */
const WEBP = Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00', 'latin1');

let sequence = 0;
function newNumber(cloud: CloudApi) {
  sequence++;
  const credentials = {
    phoneNumberId: `20${Date.now() % 1_000_000_000}${sequence}`,
    accessToken: `EAAG-token-${randomBytes(12).toString('hex')}`,
    appSecret: `app-secret-${randomBytes(12).toString('hex')}`,
  };
  const display = `1556${String(1_000_000 + ((Date.now() + sequence) % 9_000_000)).slice(0, 7)}`;
  cloud.addNumber({ ...credentials, displayPhoneNumber: display });
  return credentials;
}

let userSequence = 0;
const newUser = () => `4421${String(Date.now() % 10_000_000).padStart(7, '0')}${userSequence++ % 10}`;

describe.each(MODES)('CHAT-CLOUD messaging surface — $name', (mode) => {
  const world = cloudWorld(mode, {
    cloud: { statusDelayMs: 20 },
    files: { '/picture.png': { type: 'image/png', body: PNG_1PX }, '/sticker.webp': { type: 'image/webp', body: WEBP } },
  });
  const key = () => world.tenant.liveKey;

  /** A connected v1 instance on a new number, a user whose 24-hour window is open, and that user's first message. */
  async function chatting(name: string) {
    const credentials = newNumber(world.cloud);
    const created = await world.api.post('/v1/chat/instances', { key: key(), body: { name: `${name} ${sequence}`, integration: 'CHAT-CLOUD', cloud: credentials } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: key() }), (r) => r.body.data.status === 'connected', 10_000);
    const user = newUser();
    const pnid = credentials.phoneNumberId;
    return { id, pnid, user };
  }

  /** A user's message, as the gateway stored it: its id here and the wamid the API gave it. */
  async function received(pnid: string, user: string, text: string) {
    const wamid = await world.cloud.customerMessage(pnid, user, { type: 'text', text });
    const stored = await eventually(
      async () => (await world.api.get('/v1/messages/list?limit=100', { key: key() })).body.data as Array<{ id: string; networkMessageId: string | null }>,
      (list) => list.some((m) => m.networkMessageId === wamid),
    );
    return { id: stored.find((m) => m.networkMessageId === wamid)!.id, wamid };
  }

  const send = (id: string, body: object) => world.api.post(`/v1/chat/instances/${id}/messages`, { key: key(), body });

  /** Sends through the instance and answers the body the API accepted for it, once the gateway marked it sent with the wamid. */
  async function sentBody(id: string, pnid: string, body: object): Promise<ReceivedSend['body']> {
    const before = world.cloud.sent(pnid).length;
    const answer = await send(id, body);
    expect(answer.status, answer.text).toBe(200);
    const [arrived] = (await world.cloud.waitForSent(before + 1, (s) => s.phoneNumberId === pnid)).slice(before);
    const status = await eventually(
      async () => (await world.api.get(`/v1/messages/status/${answer.body.data.id}`, { key: key() })).body.data,
      (m) => m.networkMessageId !== null,
    );
    expect(status.networkMessageId).toBe(arrived!.wamid);
    return arrived!.body;
  }

  it('publishes what its API documents, and nothing it lacks', async () => {
    const answer = await world.api.get('/v1/integrations', { key: key() });
    expect(answer.status).toBe(200);
    const cloud = (answer.body.data as Array<{ integration: string; capabilities: string[] }>).find((i) => i.integration === 'CHAT-CLOUD');
    expect([...cloud!.capabilities].sort()).toEqual(['contacts', 'location', 'media', 'own_profile', 'reaction', 'read', 'reply', 'sticker', 'template', 'text', 'typing', 'voice']);
  });

  it('sends a reply, media by link, location, contact cards and reactions with the documented bodies', async () => {
    const { id, pnid, user } = await chatting('kinds');
    const first = await received(pnid, user, 'where are you?');
    const common = { messaging_product: 'whatsapp', recipient_type: 'individual', to: user };

    expect(await sentBody(id, pnid, { to: user, text: 'on my way', quotedMessageId: first.id })).toEqual({
      ...common,
      context: { message_id: first.wamid },
      type: 'text',
      text: { preview_url: false, body: 'on my way' },
    });
    expect(await sentBody(id, pnid, { to: user, media: { url: `${world.files.url}/picture.png` }, mediaType: 'image', caption: 'the view' })).toEqual({
      ...common,
      type: 'image',
      image: { link: `${world.files.url}/picture.png`, caption: 'the view' },
    });
    // Stickers take no caption.
    expect(await sentBody(id, pnid, { to: user, media: { url: `${world.files.url}/sticker.webp` }, mediaType: 'sticker' })).toEqual({
      ...common,
      type: 'sticker',
      sticker: { link: `${world.files.url}/sticker.webp` },
    });
    expect(await sentBody(id, pnid, { to: user, location: { latitude: 38.7223, longitude: -9.1393, name: 'Rossio', address: 'Praça Dom Pedro IV' }, quotedMessageId: first.id })).toEqual({
      ...common,
      context: { message_id: first.wamid },
      type: 'location',
      location: { latitude: 38.7223, longitude: -9.1393, name: 'Rossio', address: 'Praça Dom Pedro IV' },
    });

    // A vCard as phones write them, folded and escaped: read back into the API's structured object.
    const vcard = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Doe;Jane;Q.;Dr.;',
      'FN:Dr. Jane Q. Doe\\, MD',
      'ORG:Acme\\; Sons;Sales',
      'TITLE:Head of\\nSales',
      'TEL;type=CELL;type=VOICE;waid=15551234567:+1 555-123-4567',
      'TEL;TYPE=WORK:+1 555 000',
      ' 1111',
      'EMAIL;type=INTERNET;type=WORK:jane@example.com',
      'URL:https://example.com/jane',
      'ADR;type=HOME:;;1 Main St;Springfield;IL;62701;USA',
      'BDAY:19800102',
      'END:VCARD',
    ].join('\r\n');
    expect(await sentBody(id, pnid, { to: user, contacts: [{ displayName: 'Jane', vcard }, { displayName: 'Only a name', vcard: 'BEGIN:VCARD\nVERSION:3.0\nEND:VCARD' }] })).toEqual({
      ...common,
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Dr. Jane Q. Doe, MD', first_name: 'Jane', last_name: 'Doe', middle_name: 'Q.', prefix: 'Dr.' },
          phones: [
            { phone: '+1 555-123-4567', type: 'CELL', wa_id: '15551234567' },
            { phone: '+1 555 0001111', type: 'WORK' },
          ],
          emails: [{ email: 'jane@example.com', type: 'WORK' }],
          urls: [{ url: 'https://example.com/jane' }],
          addresses: [{ street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'USA', type: 'HOME' }],
          org: { company: 'Acme; Sons', department: 'Sales', title: 'Head of\nSales' },
          birthday: '1980-01-02',
        },
        { name: { formatted_name: 'Only a name' } },
      ],
    });

    expect(await sentBody(id, pnid, { to: user, reaction: { messageId: first.id, emoji: '👍' } })).toEqual({
      ...common,
      type: 'reaction',
      reaction: { message_id: first.wamid, emoji: '👍' },
    });
    // An empty emoji takes it back.
    expect(await sentBody(id, pnid, { to: user, reaction: { messageId: first.id, emoji: '' } })).toEqual({ ...common, type: 'reaction', reaction: { message_id: first.wamid, emoji: '' } });
  });

  it('uploads a file given as bytes to /media and sends it by the id the API gave it: a document with its name, audio as a voice note', async () => {
    const { id, pnid, user } = await chatting('uploads');
    world.cloud.openWindow(pnid, user);
    const pdf = Buffer.from('%PDF-1.4\n% a tiny document\n');
    const document = await sentBody(id, pnid, { to: user, media: { data: pdf.toString('base64'), mimetype: 'application/pdf', fileName: 'order 42.pdf' }, mediaType: 'document', caption: 'your invoice' });
    const documentId = (document.document as { id: string }).id;
    expect(document).toMatchObject({ type: 'document', document: { id: documentId, filename: 'order 42.pdf', caption: 'your invoice' } });
    expect(document.document).not.toHaveProperty('link');
    expect(world.cloud.uploaded(documentId)).toEqual({ phoneNumberId: pnid, mimeType: 'application/pdf', bytes: pdf });

    const ogg = oggOpus();
    const voice = await sentBody(id, pnid, { to: user, media: { data: ogg.toString('base64'), mimetype: 'audio/ogg' }, mediaType: 'audio', voice: true });
    const voiceId = (voice.audio as { id: string }).id;
    expect(voice).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: user, type: 'audio', audio: { id: voiceId, voice: true } });
    expect(world.cloud.uploaded(voiceId)).toMatchObject({ phoneNumberId: pnid, mimeType: 'audio/ogg', bytes: ogg });
    // One upload per file.
    expect(world.cloud.requests().filter((r) => r.method === 'POST' && r.path.endsWith(`/${pnid}/media`))).toHaveLength(2);
  });

  it("marks a received message read, and types on the chat's last received message", async () => {
    const { id, pnid, user } = await chatting('reads');
    const first = await received(pnid, user, 'one');
    const read = await world.api.post(`/v1/chat/instances/${id}/messages/${first.id}/read`, { key: key() });
    expect(read.status, read.text).toBe(200);
    expect(world.cloud.readMarks().filter((m) => m.phoneNumberId === pnid)).toEqual([expect.objectContaining({ messageId: first.wamid, typingIndicator: false })]);

    const second = await received(pnid, user, 'two');
    const typing = await world.api.post(`/v1/chat/instances/${id}/chats/${user}/presence`, { key: key(), body: { state: 'composing' } });
    expect(typing.status, typing.text).toBe(200);
    expect(world.cloud.readMarks().filter((m) => m.phoneNumberId === pnid)[1]).toMatchObject({ messageId: second.wamid, typingIndicator: true });

    // The session variant, with the cookie, does the same.
    const byCookie = await world.api.post(`/chat/instances/${id}/messages/${second.id}/read`, { cookie: world.tenant.cookie });
    expect(byCookie.status, byCookie.text).toBe(200);
    expect(world.cloud.readMarks().filter((m) => m.phoneNumberId === pnid)).toHaveLength(3);
  });

  it('a read mark answered 190 disconnects the instance with token_expired and answers 409, as a send would', async () => {
    const { id, pnid, user } = await chatting('expired');
    const first = await received(pnid, user, 'hello');
    world.cloud.expireToken(pnid);
    const read = await world.api.post(`/v1/chat/instances/${id}/messages/${first.id}/read`, { key: key() });
    expect(read.status, read.text).toBe(409);
    expect(read.body.error.code).toBe('instance_unavailable');
    await eventually(
      () => world.api.get(`/v1/chat/instances/${id}`, { key: key() }),
      (r) => r.body.data.status !== 'connected' && r.body.data.lastDisconnect?.reason === 'token_expired',
      10_000,
    );
    expect(world.cloud.readMarks().filter((m) => m.phoneNumberId === pnid)).toEqual([]);
  });

  it('refuses presence the API has no way to show, and typing in a chat that never wrote, asking nothing of the API', async () => {
    const { id, pnid, user } = await chatting('presence');
    await received(pnid, user, 'hi');
    const asked = () => world.cloud.requests().filter((r) => r.phoneNumberId === pnid && r.method === 'POST').length;
    const before = asked();
    for (const state of ['recording', 'paused', 'available', 'unavailable']) {
      const answer = await world.api.post(`/v1/chat/instances/${id}/chats/${user}/presence`, { key: key(), body: { state } });
      expect(answer.status, state).toBe(422);
      expect(answer.body.error.code).toBe('not_supported');
      expect(answer.body.error.message).toContain('CHAT-CLOUD');
      expect(answer.body.error.message).toContain(state);
    }
    const silent = await world.api.post(`/v1/chat/instances/${id}/chats/${newUser()}/presence`, { key: key(), body: { state: 'composing' } });
    expect(silent.status).toBe(422);
    expect(silent.body.error).toMatchObject({ code: 'not_supported', message: expect.stringContaining('received message') });
    expect(asked()).toBe(before);
    expect(world.cloud.readMarks().filter((m) => m.phoneNumberId === pnid)).toEqual([]);
  });

  it('refuses polls, mentions, groups, group management, edits, deletes and number checks with 422 not_supported, storing nothing', async () => {
    const { id, pnid, user } = await chatting('refusals');
    const first = await received(pnid, user, 'hello');
    const mine = await send(id, { to: user, text: 'sent by us' });
    expect(mine.status).toBe(200);
    await world.cloud.waitForSent(1, (s) => s.phoneNumberId === pnid);
    const sentMine = await eventually(
      async () => (await world.api.get(`/v1/messages/status/${mine.body.data.id}`, { key: key() })).body.data,
      (m) => m.networkMessageId !== null,
    );
    expect(sentMine.networkMessageId).not.toBeNull();

    const total = async () => (await world.api.get('/v1/messages/list?limit=1', { key: key() })).body.pagination.total as number;
    const storedBefore = await total();
    const apiBefore = world.cloud.requests().filter((r) => r.phoneNumberId === pnid).length;
    const refusals: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ['poll', () => send(id, { to: user, poll: { name: 'Lunch?', options: ['yes', 'no'] } })],
      ['mentions', () => send(id, { to: user, text: `hi @${user}`, mentions: [user] })],
      ['groups', () => send(id, { to: '120363025246125486@g.us', text: 'hello group' })],
      ['edit', () => world.api.request('PATCH', `/v1/chat/instances/${id}/messages/${mine.body.data.id}`, { key: key(), body: { text: 'edited' } })],
      ['delete', () => world.api.delete(`/v1/chat/instances/${id}/messages/${mine.body.data.id}`, { key: key() })],
      ['number_check', () => world.api.post(`/v1/chat/instances/${id}/contacts/check`, { key: key(), body: { phones: [user] } })],
      ['group_admin', () => world.api.get(`/v1/chat/instances/${id}/groups`, { key: key() })],
      ['group_admin', () => world.api.post(`/v1/chat/instances/${id}/groups`, { key: key(), body: { subject: 'Team', participants: [user] } })],
      ['group_admin', () => world.api.get(`/v1/chat/instances/${id}/groups/120363025246125486@g.us/invite`, { key: key() })],
    ];
    for (const [capability, request] of refusals) {
      const answer = await request();
      expect(answer.status, capability).toBe(422);
      expect(answer.body.error).toEqual({ code: 'not_supported', message: `CHAT-CLOUD does not support ${capability}.` });
    }
    expect(await total()).toBe(storedBefore);
    expect(world.cloud.requests().filter((r) => r.phoneNumberId === pnid)).toHaveLength(apiBefore);
    // The received message is untouched by the refused actions.
    expect((await world.api.get(`/v1/messages/status/${first.id}`, { key: key() })).status).toBe(200);
  });
});
