import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../factories/sandbox.js';
import { PNG_1PX } from '../../kit/files.js';
import { MODES } from '../../kit/modes.js';
import { evolution, evolutionInstance, evolutionWorld, expectEvolutionError } from './evolution-kit.js';

describe.each(MODES)("Evolution's webhook bodies (webhookFormat evolution), set with webhook/set or at create — $name", (mode) => {
  const world = evolutionWorld(mode);
  /** The deliveries to one receiver path, each checked to be signed with the instance's secret, parsed. */
  const delivered = async (path: string, secret: string, accept: (bodies: any[]) => boolean) => {
    const calls = await eventually(
      async () => world.receiver.received.filter((call) => call.headers['x-webhook-event'] !== 'webhook.test' && call.body.includes(`"destination":"${world.receiver.url}${path}"`)),
      (list) => accept(list.map((call) => JSON.parse(call.body))),
    );
    for (const call of calls) expect(await verifyHubSignature(secret, call.body, String(call.headers['x-hub-signature-256']))).toBe(true);
    return calls.map((call) => JSON.parse(call.body));
  };

  it('a webhook given at create gets qrcode.updated and connection.update in Evolution\'s bodies, signed', async () => {
    const name = `evo-hook-create-${Date.now()}`;
    const url = `${world.receiver.url}/create-${name}`;
    const instance = await evolutionInstance(world, name, { webhook: { url, events: ['QRCODE_UPDATED', 'CONNECTION_UPDATE'] } });
    const { webhookSecret, webhookFormat, events } = instance.created.webhook;
    expect(webhookFormat).toBe('evolution');
    expect(events).toEqual(['CONNECTION_UPDATE', 'QRCODE_UPDATED']);
    const bodies = await delivered(`/create-${name}`, webhookSecret, (list) => list.some((body) => body.event === 'connection.update' && body.data.state === 'open'));
    const qr = bodies.find((body) => body.event === 'qrcode.updated');
    expect(qr).toEqual({
      event: 'qrcode.updated',
      instance: name,
      data: { qrcode: { instance: name, pairingCode: null, base64: expect.stringMatching(/^data:image\/png;base64,/), expiresAt: expect.any(String) } },
      destination: url,
      date_time: expect.any(String),
      sender: null,
      server_url: null,
      apikey: null,
    });
    expect(bodies.find((body) => body.event === 'connection.update' && body.data.state === 'open')).toEqual({
      event: 'connection.update',
      instance: name,
      data: { instance: name, wuid: `${instance.digits}@s.whatsapp.net`, state: 'open', statusReason: null },
      destination: url,
      date_time: expect.any(String),
      sender: `${instance.digits}@s.whatsapp.net`,
      server_url: null,
      apikey: null,
    });
  });

  it('webhook/set and webhook/find: messages.upsert of received and sent messages and messages.update in Evolution\'s bodies, field by field', async () => {
    const instance = await evolutionInstance(world, `evo-hook-set-${Date.now()}`);
    const evo = evolution(world);
    expect((await evo.get(`/webhook/find/${instance.name}`)).body).toBeNull();
    const url = `${world.receiver.url}/set-${instance.name}`;
    const set = await evo.post(`/webhook/set/${instance.name}`, { webhook: { enabled: true, url, events: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'SEND_MESSAGE'] } });
    expect(set.status, set.text).toBe(201);
    expect(set.body).toMatchObject({ url, enabled: true, events: ['MESSAGES_UPSERT', 'MESSAGES_UPDATE'], webhookFormat: 'evolution', instanceId: instance.id });
    expect((await evo.get(`/webhook/find/${instance.name}`)).body).toEqual(set.body);
    const secret = instance.created.webhook.webhookSecret as string;

    const peer = newPhone();
    const digits = peer.slice(1);
    const inbound = await world.api.post('/sandbox/messages', { body: { from: peer, to: instance.phone, text: 'Is the order ready?', pushName: 'Ana' } });
    const inboundId = inbound.body.data.messageId as string;
    const picture = await world.api.post('/sandbox/messages', { body: { from: peer, to: instance.phone, type: 'image', media: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' }, caption: 'The receipt' } });
    const pictureId = picture.body.data.messageId as string;
    const sent = await evo.post(`/message/sendText/${instance.name}`, { number: digits, text: 'Yes, come by' });
    expect(sent.status, sent.text).toBe(201);
    const sentId = sent.body.key.id as string;

    const bodies = await delivered(`/set-${instance.name}`, secret, (list) =>
      [inboundId, pictureId, sentId].every((id) => list.some((body) => body.event === 'messages.upsert' && body.data.key.id === id)) &&
      list.some((body) => body.event === 'messages.update' && body.data.keyId === sentId && body.data.status === 'DELIVERY_ACK'),
    );
    const upsert = (id: string) => bodies.find((body) => body.event === 'messages.upsert' && body.data.key.id === id);
    const envelope = { instance: instance.name, destination: url, date_time: expect.any(String), sender: `${instance.digits}@s.whatsapp.net`, server_url: null, apikey: null };
    expect(upsert(inboundId)).toEqual({
      event: 'messages.upsert',
      ...envelope,
      data: {
        key: { remoteJid: `${digits}@s.whatsapp.net`, fromMe: false, id: inboundId },
        pushName: 'Ana',
        status: 'DELIVERY_ACK',
        message: { conversation: 'Is the order ready?' },
        messageType: 'conversation',
        messageTimestamp: expect.any(Number),
        instanceId: instance.id,
        source: 'unknown',
      },
    });
    expect(upsert(pictureId).data).toMatchObject({ key: { fromMe: false, id: pictureId }, messageType: 'imageMessage', message: { imageMessage: { caption: 'The receipt', mimetype: 'image/png' } } });
    expect(upsert(sentId)).toEqual({
      event: 'messages.upsert',
      ...envelope,
      data: {
        key: { remoteJid: `${digits}@s.whatsapp.net`, fromMe: true, id: sentId },
        pushName: '',
        status: 'PENDING',
        message: { conversation: 'Yes, come by' },
        messageType: 'conversation',
        messageTimestamp: expect.any(Number),
        instanceId: instance.id,
        source: 'unknown',
      },
    });
    expect(bodies.find((body) => body.event === 'messages.update' && body.data.status === 'DELIVERY_ACK')).toEqual({
      event: 'messages.update',
      ...envelope,
      data: { keyId: sentId, messageId: sentId, status: 'DELIVERY_ACK', instanceId: instance.id },
    });

    // The gateway's own bodies again when asked; switched off with enabled: false.
    const own = await evo.post(`/webhook/set/${instance.name}`, { webhook: { enabled: true, url, webhookFormat: 'gateway' } });
    expect(own.body.webhookFormat).toBe('gateway');
    const off = await evo.post(`/webhook/set/${instance.name}`, { webhook: { enabled: false, url } });
    expect(off.status, off.text).toBe(201);
    expect((await evo.get(`/webhook/find/${instance.name}`)).body).toBeNull();

    expectEvolutionError(await evo.post(`/webhook/set/${instance.name}`, { webhook: { enabled: true, url: 'ftp://example.com' } }), 400, 'Bad Request', /^webhook\.url: /);
    expectEvolutionError(await evo.post(`/webhook/set/${instance.name}`, { webhook: { enabled: true, url, webhookFormat: 'xml' } }), 400, 'Bad Request', /^webhook\.webhookFormat: must be one of gateway, evolution/);
    expectEvolutionError(await evo.post(`/webhook/set/${instance.name}`, { webhook: { enabled: true, url, events: ['MESSAGES_EXPLODE'] } }), 400, 'Bad Request', /^webhook\.events: unknown event name/);
  });
});
