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

  it('serves and documents the routes its descriptor declares, as REST does its own', async () => {
    const { api, gw } = suite;
    const echo = await api.get('/loopback/echo?text=ping');
    expect(echo.status).toBe(200);
    expect(echo.body).toEqual({ success: true, data: { integration: 'CHAT-LOOPBACK', text: 'ping' } });

    const document = (await api.get('/openapi.json')).body;
    expect(document.paths['/loopback/echo'].get).toMatchObject({ tags: ['Loopback network'], operationId: 'getLoopbackEcho', summary: expect.any(String) });
    expect(document.paths['/loopback/echo'].get.parameters).toContainEqual(expect.objectContaining({ in: 'query', name: 'text' }));
    expect(document.paths['/loopback/phones/{phone}'].get.tags).toEqual(['Loopback network']);
    expect(document.tags.map((tag: { name: string }) => tag.name)).toContain('Loopback network');
    // Every route served is documented, the engine's as much as the gateway's own, and nothing else.
    const served = gw.gateway.routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort();
    expect(documented).toEqual(served);
    expect(served).toContain('get /loopback/echo');
  });

  it('is validated with the rest of the configuration: its settings, and its name in ENGINES', async () => {
    const { loadConfig } = await import('../../../../src/compose/config.js');
    expect(() => loadConfig({ ENGINES: 'loopback', LOOPBACK_CODES_KEPT: '0' })).toThrow(/LOOPBACK_CODES_KEPT/);
    expect(loadConfig({ ENGINES: 'loopback' }).ENGINES).toEqual(['loopback']);
    expect(() => loadConfig({ ENGINES: 'carrier-pigeon' })).toThrow(/known: sandbox, baileys, cloud, loopback/);
  });
});

describe('an engine known to the catalogue but not offered by ENGINES', () => {
  const suite = gatewaySuite(MODES[0]!, { env: { ENGINES: 'sandbox' } });

  it('has its routes neither mounted nor documented', async () => {
    const { api, gw } = suite;
    // Plain fetch: the test client checks answers against a document with every known engine's routes.
    expect((await fetch(`${gw.url}/loopback/echo?text=ping`)).status).toBe(404);
    const scan = await fetch(`${gw.url}/loopback/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'loopback:x', phone: newPhone() }) });
    expect(scan.status).toBe(404);
    expect(gw.gateway.routes.filter((r) => r.path.startsWith('/loopback'))).toEqual([]);
    const document = (await api.get('/openapi.json')).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/loopback'))).toEqual([]);
    expect(document.paths['/sandbox/scan']).toBeDefined();
  });
});
