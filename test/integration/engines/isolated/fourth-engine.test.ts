import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../../src/engines/catalogue.js';
import { decodeQr } from '../../../../src/infra/qr-decode.js';
import { loopbackEngine } from '../../../engines/loopback/descriptor.js';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { gatewaySuite } from '../../../kit/suite.js';

// The engine comes from test/, through the catalogue alone: no file of src names it.
catalogue.register(loopbackEngine);

describe('a fourth engine, registered from outside src through the catalogue', () => {
  const suite = gatewaySuite(MODES[0]!, { env: { ENGINES: 'loopback,sandbox', LOOPBACK_CODES_KEPT: '5' } });

  it('is offered by ENGINES, pairs by QR code, sends text out and receives text in over REST', async () => {
    const { api } = suite;
    const key = suite.tenants[0]!.liveKey;
    expect((await api.graphql('{ integrations { integration } }', {}, { key })).body.data).toEqual({ integrations: [{ integration: 'CHAT-LOOPBACK' }, { integration: 'CHAT-SANDBOX' }] });

    // The first offered engine is the default for new instances.
    const created = await api.post('/v1/chat/instances', { key, body: { name: 'loopback line' } });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await api.get(`/v1/chat/instances/${id}`, { key })).body.data.integration).toBe('CHAT-LOOPBACK');

    // Its own QR code, scanned through the route its descriptor mounts.
    const qr = await eventually(() => api.get(`/v1/chat/instances/${id}/qr`, { key }), (r) => r.status === 200 && Boolean(r.body.data?.qrCode));
    const code = decodeQr(qr.body.data.qrCode);
    expect(code).toMatch(/^loopback:/);
    const phone = newPhone();
    expect((await api.post('/loopback/scan', { body: { code: 'loopback:unknown', phone } })).status).toBe(400);
    expect((await api.post('/loopback/scan', { body: { code, phone } })).status).toBe(200);
    await eventually(() => api.get(`/v1/chat/instances/${id}`, { key }), (r) => r.body.data.status === 'connected');

    // Out: the phone on the other side receives the text.
    const to = newPhone().slice(1);
    const sent = await api.post('/v1/messages/send', { key, body: { to, text: 'hello from the gateway' } });
    expect(sent.status).toBe(200);
    const inbox = await eventually(() => api.get(`/loopback/phones/${to}`), (r) => r.body.data.length > 0);
    expect(inbox.body.data).toEqual([{ from: phone.slice(1), text: 'hello from the gateway', networkMessageId: expect.any(String) }]);
    const status = await eventually(() => api.get(`/v1/messages/status/${sent.body.data.id}`, { key }), (r) => r.body.data.status === 'sent');
    expect(status.body.data.status).toBe('sent');

    // In: a phone's text becomes a received message of the instance.
    const received = await api.post('/loopback/send', { body: { from: to, to: phone, text: 'hello back' } });
    expect(received.status).toBe(200);
    const list = await api.get('/v1/messages/list?limit=100', { key });
    expect(list.body.data.filter((m: { instanceId: string; direction: string }) => m.instanceId === id && m.direction === 'in')).toEqual([
      expect.objectContaining({ text: 'hello back', from: to }),
    ]);
  }, 60_000);

  it('is validated with the rest of the configuration: its settings, and its name in ENGINES', async () => {
    const { loadConfig } = await import('../../../../src/compose/config.js');
    expect(() => loadConfig({ ENGINES: 'loopback', LOOPBACK_CODES_KEPT: '0' })).toThrow(/LOOPBACK_CODES_KEPT/);
    expect(loadConfig({ ENGINES: 'loopback' }).ENGINES).toEqual(['loopback']);
    expect(() => loadConfig({ ENGINES: 'carrier-pigeon' })).toThrow(/known: sandbox, baileys, cloud, loopback/);
  });
});
