import { describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { sandboxWorld } from '../../../kit/worlds/sandbox.js';
import { decodeQr } from '../../../../src/infra/qr-decode.js';

const RULE = 'must be a phone number with the country code: 7-15 digits, + and single spaces or dashes allowed (+55 11 99999-0001)';

/** "+5511912345678" written as a person would: "+55 11 91234-5678". */
const spaced = (phone: string) => {
  const digits = phone.replace(/\D/g, '');
  return `+${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, -4)}-${digits.slice(-4)}`;
};

/**
 * One phone format per place: the spec's send takes digits only and says how to write the number;
 * the gateway's own inputs (pairing codes, the sandbox controls) take digits with or without +,
 * spaces and dashes; answers carry +digits where the spec says international format, webhooks digits.
 */
describe.each(MODES)('Phone numbers in every written form the gateway promises — $name', (mode) => {
  const world = sandboxWorld(mode);


  it('a pairing code asked for with bare digits is entered by the phone written with +, spaces and a dash', async () => {
    const phone = newPhone();
    const created = await world.api.post('/chat/instances', { cookie: world.tenant.cookie, body: { name: `pairing digits ${phone}` } });
    const id = created.body.data.instanceId;
    const asked = await world.api.post(`/chat/instances/${id}/pairing-code`, { cookie: world.tenant.cookie, body: { phone: phone.slice(1) } });
    expect(asked.status, asked.text).toBe(200);
    const paired = await world.api.post('/sandbox/pair', { body: { code: asked.body.data.code, phone: spaced(phone) } });
    expect(paired.status, paired.text).toBe(200);
    const detail = await eventually(() => world.api.get(`/chat/instances/${id}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'connected');
    expect(detail.body.data.phone).toBe(phone);
  });

  it('v1 and GraphQL pairing codes take the number with spaces and dashes; the v1 answer shows +digits', async () => {
    const phone = newPhone();
    const created = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `pairing spaced ${phone}` } });
    const id = created.body.data.id;
    const asked = await world.api.post(`/v1/chat/instances/${id}/pairing-code`, { key: world.tenant.liveKey, body: { phone: spaced(phone) } });
    expect(asked.status, asked.text).toBe(200);
    const byGraphql = await world.api.graphql(
      'mutation ($input: RequestPairingCodeInput!) { requestPairingCode(input: $input) { code userErrors { code field message } } }',
      { input: { id, phone: phone.slice(1).replace(/^(\d{2})(\d{2})/, '$1-$2-') } },
      { key: world.tenant.liveKey },
    );
    expect(byGraphql.body.data.requestPairingCode.userErrors, byGraphql.text).toEqual([]);
    expect((await world.api.post('/sandbox/pair', { body: { code: byGraphql.body.data.requestPairingCode.code, phone: phone.slice(1) } })).status).toBe(200);
    const detail = await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'connected');
    expect(detail.body.data.phoneNumber).toBe(phone);
  });

  it('the sandbox controls take every written form: scan, inbound messages, a phone inbox; webhooks carry digits', async () => {
    const phone = newPhone();
    const created = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `scan digits ${phone}`, webhookUrl: world.receiver.url } });
    const id = created.body.data.id;
    const qr = await world.api.get(`/v1/chat/instances/${id}/qr`, { key: world.tenant.liveKey });
    const scanned = await world.api.post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode), phone: phone.slice(1) } });
    expect(scanned.status, scanned.text).toBe(200);
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'connected' && r.body.data.phoneNumber === phone);

    const contact = newPhone();
    const inbound = await world.api.post('/sandbox/messages', { body: { from: spaced(contact), to: phone, text: 'hi there' } });
    expect(inbound.status, inbound.text).toBe(200);
    const [upsert] = await eventually(
      async () => world.receiver.of('messages.upsert').map((call) => JSON.parse(call.body)).filter((body) => body.instanceId === id && body.data.fromMe === false),
      (list) => list.length === 1,
    );
    expect(upsert.data).toMatchObject({ from: contact.slice(1), to: phone.slice(1) });
    const connected = world.receiver.of('connection.update').map((call) => JSON.parse(call.body)).filter((body) => body.instanceId === id && body.data.status === 'connected');
    expect(connected[0]?.data.phoneNumber).toBe(phone.slice(1));

    // The phone inbox by any written form of its number (the path's + as is).
    const sent = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: contact.slice(1), text: 'back to you' } });
    expect(sent.status, sent.text).toBe(200);
    for (const written of [contact, contact.slice(1), encodeURIComponent(spaced(contact))]) {
      const inbox = await eventually(() => world.api.get(`/sandbox/phones/${written}/messages`), (r) => r.status === 200 && r.body.data.length === 1);
      expect(inbox.body.data[0].id).toBe(sent.body.data.id);
    }
    const read = await world.api.post(`/sandbox/phones/${contact}/read`, { body: { messageId: sent.body.data.id } });
    expect(read.status, read.text).toBe(200);
  });

  it('refuses what is not a phone number on the gateway\'s own inputs, naming the rule', async () => {
    const created = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `refusals ${Date.now()}` } });
    for (const phone of ['+55 (11) 99999-0001', '+0551199999', '55--11999990001', '12345', '+55 11 99999-0001 ', 'phone']) {
      const pairing = await world.api.post(`/v1/chat/instances/${created.body.data.id}/pairing-code`, { key: world.tenant.liveKey, body: { phone } });
      expect(pairing.status, phone).toBe(400);
      expect(pairing.body.error).toEqual({ code: 'invalid_request', message: `phone: ${RULE}` });
      const scan = await world.api.post('/sandbox/scan', { body: { code: 'sandbox:x', phone } });
      expect(scan.body.error).toEqual({ code: 'invalid_request', message: `phone: ${RULE}` });
      const inbound = await world.api.post('/sandbox/messages', { body: { from: phone, to: '5511999990001', text: 'x' } });
      expect(inbound.body.error).toEqual({ code: 'invalid_request', message: `from: ${RULE}` });
    }
    expect((await world.api.get('/sandbox/phones/55(11)9/messages')).status).toBe(400);
  });

  it("the spec's send keeps digits only, and its 400 says how to write the number", async () => {
    const refused = await world.api.post('/v1/messages/send', { key: world.tenant.liveKey, body: { to: '+55 11 98765-4321', text: 'hi' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'invalid_request',
      message: 'to: must be digits only with the country code first (7-15 digits, no +, spaces, dashes or parentheses): write "+55 11 98765-4321" as "5511987654321"',
    });
  });
});
