import { afterAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance, connectedV1Instance, eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { createTenant, login } from '../../factories/tenants.js';
import { startTestGateway, type TestGateway } from '../../kit/gateway.js';
import { client } from '../../helpers/http.js';
import { MODES } from '../../kit/modes.js';

describe.each(MODES)('instances across a restart — $name', (mode) => {
  const open: TestGateway[] = [];
  afterAll(async () => {
    for (const gw of open.reverse()) await gw.close().catch(() => {});
  });

  it('comes back with every instance in its state; connected ones send, QR sequences continue and expire on time', async () => {
    const env = { QR_SESSION_TTL_S: '2', QR_SESSION_ATTEMPTS: '2' };
    const first = await startTestGateway(mode, { env });
    open.push(first);
    let api = client(first.url);
    const tenant = await createTenant(first.gateway, api, 'enterprise');

    const initializing = (await api.post('/v1/chat/instances', { key: tenant.liveKey, body: { name: 'initializing' } })).body.data.id;
    const connected = await connectedV1Instance(api, tenant.liveKey, 'connected');
    const disconnected = await connectedSessionInstance(api, tenant.cookie, 'disconnected');
    await api.post(`/chat/instances/${disconnected.id}/disconnect`, { cookie: tenant.cookie });
    const banned = await connectedSessionInstance(api, tenant.cookie, 'banned');
    await api.post(`/sandbox/instances/${banned.id}/ban`);
    const pairing = (await api.post('/chat/instances', { cookie: tenant.cookie, body: { name: 'pairing' } })).body.data.instanceId;
    await eventually(() => api.get(`/chat/instances/${pairing}`, { cookie: tenant.cookie }), (r) => r.body.data.status === 'qr');
    // Held for the disconnected instance: it must survive the restart too.
    const to = newPhone().slice(1);
    const held = await api.post(`/chat/instances/${disconnected.id}/send-text`, { cookie: tenant.cookie, body: { to, message: 'kept through a restart' } });

    await first.gateway.close();
    const second = await startTestGateway(mode, { env, reuse: first });
    open.push(second);
    api = client(second.url);
    const cookie = await login(api, tenant.email, tenant.password);
    const status = async (id: string) => (await api.get(`/v1/chat/instances/${id}`, { key: tenant.liveKey })).body.data.status;

    expect(await status(initializing)).toBe('initializing');
    expect(await status(connected.id)).toBe('connected');
    expect(await status(disconnected.id)).toBe('disconnected');
    expect(await status(banned.id)).toBe('error');
    expect((await api.get(`/chat/instances/${banned.id}`, { cookie })).body.data.status).toBe('banned');
    expect(['qr_code', 'disconnected']).toContain(await status(pairing));

    // The QR clock picks up where it was: two codes of two seconds, then disconnected.
    await eventually(() => status(pairing), (s) => s === 'disconnected', 10_000);

    // The connected instance still carries messages.
    const sent = await api.post('/v1/messages/send', { key: tenant.liveKey, body: { to, text: 'after restart' } });
    expect(sent.status).toBe(200);
    await eventually(() => phoneInbox(api, to), (r) => r.body.data.some((m: { id: string }) => m.id === sent.body.data.id));

    // The held message goes out once its instance is paired again.
    const qr = await api.post(`/chat/instances/${disconnected.id}/regenerate-qr`, { cookie });
    const { decodeQr } = await import('../../../src/infra/qr-decode.js');
    await api.post('/sandbox/scan', { body: { code: decodeQr(qr.body.data.qrCode.base64), phone: newPhone() } });
    await eventually(() => phoneInbox(api, to), (r) => r.body.data.some((m: { id: string }) => m.id === held.body.data.id));
  }, 60_000);
});
