import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { oggOpus, PNG_1PX } from '../../kit/files.js';
import { MODES } from '../../kit/modes.js';
import { evolution, evolutionInstance, evolutionWorld, expectEvolutionError } from './evolution-kit.js';

const OGG = oggOpus();
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4, 0), Buffer.from('WEBPVP8 '), Buffer.alloc(40, 3)]);

describe.each(MODES)("Evolution API's message operations, as its docs write them, reaching the sandbox phone — $name", (mode) => {
  const world = evolutionWorld(mode, { files: { '/picture.png': { type: 'image/png', body: PNG_1PX } } });
  let instance: Awaited<ReturnType<typeof evolutionInstance>>;
  const evo = () => evolution(world);
  const inbox = async (phone: string, count: number) => (await eventually(() => phoneInbox(world.api, phone), (r) => r.body.data.length >= count)).body.data as Array<Record<string, any>>;
  const stored = () => world.gw.gateway.infra.db.prisma.message.count({ where: { tenantId: world.tenant.tenantId } });
  /** A send's answer, checked against Evolution's shape: 201, the key, PENDING. */
  const sent = async (path: string, body: Record<string, unknown>, remoteJid: string, messageType: string) => {
    const answer = await evo().post(`/message/${path}/${instance.name}`, body);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      key: { remoteJid, fromMe: true, id: expect.any(String) },
      pushName: '',
      status: 'PENDING',
      message: expect.any(Object),
      messageType,
      messageTimestamp: expect.any(Number),
      instanceId: instance.id,
    });
    return answer.body;
  };

  beforeAll(async () => {
    instance = await evolutionInstance(world, `evo-msg-${Date.now()}`);
  }, 60_000);

  it('sendText takes the number as Evolution does (digits, +, spaces, dashes, a jid) and the phone gets the text', async () => {
    const peer = newPhone();
    const digits = peer.slice(1);
    const written = [digits, `+${digits}`, `+${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, 9)}-${digits.slice(9)}`, `${digits}@s.whatsapp.net`];
    const ids: string[] = [];
    for (const [index, number] of written.entries()) {
      const answer = await sent('sendText', { number, text: `Hello ${index}`, delay: 1200, linkPreview: true }, `${digits}@s.whatsapp.net`, 'conversation');
      expect(answer.message).toEqual({ conversation: `Hello ${index}` });
      ids.push(answer.key.id);
    }
    const list = await inbox(peer, 4);
    expect(list.map((m) => [m.id, m.from, m.type, m.text])).toEqual(ids.map((id, index) => [id, instance.digits, 'text', `Hello ${index}`]));
  });

  it('honours Idempotency-Key as the gateway\'s sends do: a retry answers the same message, sent once', async () => {
    const peer = newPhone();
    const headers = { apikey: world.tenant.liveKey, 'Idempotency-Key': `evo-${Date.now()}` };
    const first = await world.api.post(`/message/sendText/${instance.name}`, { headers, body: { number: peer, text: 'Only once' } });
    const again = await world.api.post(`/message/sendText/${instance.name}`, { headers, body: { number: peer, text: 'Only once' } });
    expect(first.status, first.text).toBe(201);
    expect(again.body.key.id).toBe(first.body.key.id);
    expect((await inbox(peer, 1)).map((m) => m.id)).toEqual([first.body.key.id]);
    const changed = await world.api.post(`/message/sendText/${instance.name}`, { headers, body: { number: peer, text: 'Something else' } });
    expectEvolutionError(changed, 409, 'Conflict');
  });

  it('sendMedia (URL and base64), sendWhatsAppAudio, sendSticker, sendLocation, sendContact and sendPoll reach the phone as sent', async () => {
    const peer = newPhone();
    const digits = peer.slice(1);
    const jid = `${digits}@s.whatsapp.net`;
    const image = await sent('sendMedia', { number: digits, mediatype: 'image', mimetype: 'image/png', caption: 'A dot', media: `${world.files.url}/picture.png`, fileName: 'picture.png' }, jid, 'imageMessage');
    const document = await sent('sendMedia', { number: digits, mediatype: 'document', mimetype: 'application/pdf', media: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'), fileName: 'terms.pdf', caption: 'Terms' }, jid, 'documentMessage');
    const audio = await sent('sendWhatsAppAudio', { number: digits, audio: OGG.toString('base64') }, jid, 'audioMessage');
    const sticker = await sent('sendSticker', { number: digits, sticker: WEBP.toString('base64') }, jid, 'stickerMessage');
    const location = await sent('sendLocation', { number: digits, name: 'Office', address: 'Av. Paulista 1000', latitude: -23.55, longitude: -46.63 }, jid, 'locationMessage');
    const contact = await sent('sendContact', { number: digits, contact: [{ fullName: 'Ana Lima', wuid: '5511988887777', phoneNumber: '+55 11 98888-7777', organization: 'Acme', email: 'ana@example.com' }] }, jid, 'contactMessage');
    const poll = await sent('sendPoll', { number: digits, name: 'Lunch?', selectableCount: 1, values: ['Yes', 'No'] }, jid, 'pollCreationMessage');
    expect(poll.message).toEqual({ pollCreationMessage: { name: 'Lunch?', options: [{ optionName: 'Yes' }, { optionName: 'No' }], selectableOptionsCount: 1 } });

    const list = await inbox(peer, 7);
    const entry = (id: string) => list.find((m) => m.id === id)!;
    expect(entry(image.key.id)).toMatchObject({ type: 'image', caption: 'A dot', mediaUrl: `${world.files.url}/picture.png`, media: { mimetype: 'image/png' } });
    expect(entry(document.key.id)).toMatchObject({ type: 'document', caption: 'Terms', media: { mimetype: 'application/pdf', fileName: 'terms.pdf' } });
    expect(entry(audio.key.id)).toMatchObject({ type: 'audio', media: { voice: true, size: OGG.length } });
    expect(entry(sticker.key.id)).toMatchObject({ type: 'sticker', media: { mimetype: 'image/webp', size: WEBP.length } });
    expect(entry(location.key.id)).toMatchObject({ type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Office', address: 'Av. Paulista 1000' } });
    expect(entry(contact.key.id)).toMatchObject({ type: 'contact', contacts: [{ displayName: 'Ana Lima', vcard: expect.stringMatching(/^BEGIN:VCARD[\s\S]*FN:Ana Lima[\s\S]*ORG:Acme;[\s\S]*waid=5511988887777:\+55 11 98888-7777[\s\S]*END:VCARD$/) }] });
    expect(entry(poll.key.id)).toMatchObject({ type: 'poll', poll: { name: 'Lunch?', options: ['Yes', 'No'], selectableCount: 1 } });
  });

  it('sendReaction reacts to a message by its key; a quoted sendText replies to it', async () => {
    const peer = newPhone();
    const asked = await world.api.post('/sandbox/messages', { body: { from: peer, to: instance.phone, text: 'Open today?' } });
    expect(asked.status, asked.text).toBe(200);
    const question = asked.body.data.messageId as string;
    const jid = `${peer.slice(1)}@s.whatsapp.net`;
    const reaction = await sent('sendReaction', { key: { remoteJid: jid, fromMe: false, id: question }, reaction: '👍' }, jid, 'reactionMessage');
    expect(reaction.message).toEqual({ reactionMessage: { key: { remoteJid: jid, fromMe: false, id: question }, text: '👍' } });
    const reply = await sent('sendText', { number: peer, text: 'Until 6', quoted: { key: { id: question }, message: { conversation: 'Open today?' } } }, jid, 'conversation');
    const list = await inbox(peer.slice(1), 2);
    expect(list.find((m) => m.id === reaction.key.id)).toMatchObject({ type: 'reaction', reaction: { messageId: question, emoji: '👍' } });
    expect(list.find((m) => m.id === reply.key.id)).toMatchObject({ type: 'text', text: 'Until 6', quoted: { messageId: question } });
  });

  it('refuses sendList and sendButtons with 422 and bad input with 400 naming the Evolution field, storing nothing', async () => {
    const before = await stored();
    const number = newPhone().slice(1);
    expectEvolutionError(await evo().post(`/message/sendList/${instance.name}`, { number, title: 'Menu', buttonText: 'Open', sections: [] }), 422, 'Unprocessable Entity', /sendList/);
    expectEvolutionError(await evo().post(`/message/sendButtons/${instance.name}`, { number, title: 'Pick', buttons: [] }), 422, 'Unprocessable Entity', /sendButtons/);
    expectEvolutionError(await evo().post(`/message/sendText/${instance.name}`, { text: 'no number' }), 400, 'Bad Request', /^number: is required/);
    expectEvolutionError(await evo().post(`/message/sendText/${instance.name}`, { number: 'call me', text: 'x' }), 400, 'Bad Request', /^number: must be phone digits/);
    expectEvolutionError(await evo().post(`/message/sendText/${instance.name}`, { number: '12345678901@lid', text: 'x' }), 400, 'Bad Request', /^number: a …@lid recipient/);
    expectEvolutionError(await evo().post(`/message/sendText/${instance.name}`, { number }), 400, 'Bad Request', /^text: /);
    expectEvolutionError(await evo().post(`/message/sendText/${instance.name}`, { number: '123', text: 'x' }), 400, 'Bad Request', /^number: /);
    expectEvolutionError(await evo().post(`/message/sendLocation/${instance.name}`, { number, latitude: 123, longitude: 0 }), 400, 'Bad Request', /latitude: must be between -90 and 90/);
    expectEvolutionError(await evo().post(`/message/sendMedia/${instance.name}`, { number, mediatype: 'hologram', media: 'https://example.com/x.png' }), 400, 'Bad Request', /mediatype: must be one of/);
    expectEvolutionError(await evo().post(`/message/sendPoll/${instance.name}`, { number, name: 'Only one', values: ['A'] }), 400, 'Bad Request', /values: must have at least 2 options/);
    expectEvolutionError(await evo().post(`/message/sendContact/${instance.name}`, { number, contact: [{ phoneNumber: '+5511988887777' }] }), 400, 'Bad Request', /contact\.0\.fullName: is required/);
    expectEvolutionError(await evo().post(`/message/sendText/${instance.name}`, { number, text: 'all', everyOne: true }), 422, 'Unprocessable Entity', /everyOne/);
    expectEvolutionError(await evo().post(`/message/sendText/${instance.name}`, { number, text: 'all', mentionsEveryOne: true }), 422, 'Unprocessable Entity', /everyOne/);
    expectEvolutionError(await evo().post('/message/sendText/no-such-instance', { number, text: 'x' }), 404, 'Not Found', /"no-such-instance" instance not found/);
    expect(await stored()).toBe(before);
  });
});
