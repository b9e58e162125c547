import { describe, expect, it } from 'vitest';
import { eventually } from '../../factories/sandbox.js';
import { MODES } from '../../kit/modes.js';
import { sandboxWorld } from '../../kit/worlds/sandbox.js';
import { evolution, evolutionInstance, evolutionWorld, expectEvolutionError } from './evolution-kit.js';

describe.each(MODES)("Evolution API's instance operations and apikey (docs/evolution.md) — $name", (mode) => {
  const world = evolutionWorld(mode, { tenants: ['enterprise', 'enterprise'] });
  const unique = (what: string) => `${what}-${Date.now()}-${Math.floor(Math.random() * 1000)}`;

  it('creates an instance with its QR code, links it, and answers connect, connectionState and fetchInstances in Evolution\'s shapes', async () => {
    const evo = evolution(world);
    const name = unique('evo');
    const created = await evo.post('/instance/create', { instanceName: name, qrcode: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      instance: { instanceName: name, instanceId: expect.any(String), integration: 'CHAT-SANDBOX', status: 'connecting' },
      webhook: {},
      qrcode: { pairingCode: null, code: expect.any(String), base64: expect.stringMatching(/^data:image\/png;base64,/), count: 1 },
    });
    // connect while pairing: the live code again.
    const connect = await evo.get(`/instance/connect/${name}`);
    expect(connect.status, connect.text).toBe(200);
    expect(connect.body).toEqual({ pairingCode: null, code: created.body.qrcode.code, base64: expect.stringMatching(/^data:image\/png;base64,/), count: 1 });
    expect((await evo.get(`/instance/connectionState/${name}`)).body).toEqual({ instance: { instanceName: name, state: 'connecting' } });

    const phone = `+55119${String(Date.now()).slice(-8)}`;
    const scan = await world.api.post('/sandbox/scan', { body: { code: connect.body.code, phone } });
    expect(scan.status, scan.text).toBe(200);
    const open = await eventually(() => evo.get(`/instance/connectionState/${name}`), (r) => r.body.instance.state === 'open');
    expect(open.body).toEqual({ instance: { instanceName: name, state: 'open' } });
    expect((await evo.get(`/instance/connect/${name}`)).body).toEqual({ instance: { instanceName: name, state: 'open' } });

    const listed = await evo.get('/instance/fetchInstances');
    expect(listed.status, listed.text).toBe(200);
    const row = listed.body.find((entry: any) => entry.name === name);
    expect(row).toMatchObject({ id: created.body.instance.instanceId, name, connectionStatus: 'open', ownerJid: `${phone.slice(1)}@s.whatsapp.net`, number: phone.slice(1), integration: 'CHAT-SANDBOX' });
    const one = await evo.get(`/instance/fetchInstances?instanceName=${name}`);
    expect(one.body.map((entry: any) => entry.name)).toEqual([name]);
  });

  it('asks a pairing code with connect ?number=, which the phone enters to link', async () => {
    const evo = evolution(world);
    const name = unique('pair');
    expect((await evo.post('/instance/create', { instanceName: name })).status).toBe(201);
    const phone = `55118${String(Date.now()).slice(-8)}`;
    const connect = await evo.get(`/instance/connect/${name}?number=${phone}`);
    expect(connect.status, connect.text).toBe(200);
    expect(connect.body).toMatchObject({ pairingCode: expect.any(String), count: expect.any(Number) });
    const paired = await world.api.post('/sandbox/pair', { body: { code: connect.body.pairingCode, phone } });
    expect(paired.status, paired.text).toBe(200);
    await eventually(() => evo.get(`/instance/connectionState/${name}`), (r) => r.body.instance.state === 'open');
  });

  it('restarts (reporting the state), logs out and deletes, each in its answer', async () => {
    const evo = evolution(world);
    const instance = await evolutionInstance(world, unique('life'));
    const restart = await evo.post(`/instance/restart/${instance.name}`);
    expect(restart.status, restart.text).toBe(200);
    expect(restart.body).toEqual({ instance: { instanceName: instance.name, status: 'open' } });
    const logout = await evo.delete(`/instance/logout/${instance.name}`);
    expect(logout.status, logout.text).toBe(200);
    expect(logout.body).toEqual({ status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } });
    expect((await evo.get(`/instance/connectionState/${instance.name}`)).body.instance.state).toBe('close');
    // Not connected: Evolution's 400.
    expectEvolutionError(await evo.delete(`/instance/logout/${instance.name}`), 400, 'Bad Request', /not connected/);
    expectEvolutionError(await evo.post(`/instance/restart/${instance.name}`), 400, 'Bad Request', /not connected/);
    const deleted = await evo.delete(`/instance/delete/${instance.name}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ status: 'SUCCESS', error: false, response: { message: 'Instance deleted' } });
    expect((await evo.get('/instance/fetchInstances')).body.some((entry: any) => entry.name === instance.name)).toBe(false);
    expectEvolutionError(await evo.get(`/instance/connectionState/${instance.name}`), 404, 'Not Found', new RegExp(instance.name));
    // Sends find the name from memory: the delete reached that copy too.
    expectEvolutionError(await evo.post(`/message/sendText/${instance.name}`, { number: '5511999990001', text: 'gone' }), 404, 'Not Found', new RegExp(instance.name));
  });

  it('refuses a missing or wrong apikey with 401, and never shows another tenant\'s instance', async () => {
    const name = unique('mine');
    expect((await evolution(world).post('/instance/create', { instanceName: name })).status).toBe(201);
    const missing = await world.api.get('/instance/fetchInstances');
    expectEvolutionError(missing, 401, 'Unauthorized');
    expectEvolutionError(await world.api.post(`/message/sendText/${name}`, { body: { number: '5511999990001', text: 'x' } }), 401, 'Unauthorized');
    expectEvolutionError(await evolution(world, 'mgw_live_wrong').get('/instance/fetchInstances'), 401, 'Unauthorized');
    expectEvolutionError(await world.api.get('/instance/fetchInstances', { key: world.tenant.liveKey }), 401, 'Unauthorized', /apikey/);

    const other = evolution(world, world.tenants[1]!.liveKey);
    expect((await other.get('/instance/fetchInstances')).body.some((entry: any) => entry.name === name)).toBe(false);
    for (const answer of [
      await other.get(`/instance/connectionState/${name}`),
      await other.post(`/message/sendText/${name}`, { number: '5511999990001', text: 'not yours' }),
      await other.delete(`/instance/delete/${name}`),
    ]) {
      expectEvolutionError(answer, 404, 'Not Found', new RegExp(`"${name}" instance not found`));
    }
    expect((await evolution(world).get(`/instance/connectionState/${name}`)).status).toBe(200);
    // Renamed through the gateway's own API, the instance answers to its new name only, sends included.
    const id = (await evolution(world).get(`/instance/fetchInstances?instanceName=${name}`)).body[0].id as string;
    const renamed = await world.api.put(`/v1/chat/instances/${id}`, { key: world.tenant.liveKey, body: { name: `${name}-new` } });
    expect(renamed.status, renamed.text).toBe(200);
    expectEvolutionError(await evolution(world).post(`/message/sendText/${name}`, { number: '5511999990001', text: 'old name' }), 404, 'Not Found');
    expect((await evolution(world).get(`/instance/connectionState/${name}-new`)).body.instance.instanceName).toBe(`${name}-new`);
  });

  it('refuses bad input with 400 naming the field, storing nothing; an engine not offered and an account presence are refused', async () => {
    const evo = evolution(world);
    const before = (await evo.get('/instance/fetchInstances')).body.length;
    expectEvolutionError(await evo.post('/instance/create', {}), 400, 'Bad Request', /instanceName: is required/);
    expectEvolutionError(await evo.post('/instance/create', { instanceName: 'ab' }), 400, 'Bad Request', /instanceName: must be 3 to 100 characters/);
    expectEvolutionError(await evo.post('/instance/create', { instanceName: unique('bad'), webhook: { url: 'not a url' } }), 400, 'Bad Request', /webhook\.url/);
    expectEvolutionError(await evo.post('/instance/create', { instanceName: unique('bad'), webhook: { url: 'https://example.com/hook', events: ['NO_SUCH_EVENT'] } }), 400, 'Bad Request', /webhook\.events: unknown event name\(s\) NO_SUCH_EVENT/);
    expectEvolutionError(await evo.post('/instance/create', { instanceName: unique('bad'), integration: 'WHATSAPP-BAILEYS' }), 400, 'Bad Request', /integration: must be one of CHAT-SANDBOX/);
    expect((await evo.get('/instance/fetchInstances')).body.length).toBe(before);
    const instance = await evolutionInstance(world, unique('presence'));
    expectEvolutionError(await evo.post(`/instance/setPresence/${instance.name}`, { presence: 'available' }), 422, 'Unprocessable Entity', /setPresence/);
  });
});

describe("Evolution API's paths under COMPAT_EVOLUTION_PREFIX, and off by default", () => {
  const prefixed = evolutionWorld(MODES[0]!, { prefix: '/evolution' });
  const plain = sandboxWorld(MODES[0]!);

  it('serves none of them without COMPAT_EVOLUTION', async () => {
    for (const answer of [await evolution(plain).get('/instance/fetchInstances'), await evolution(plain).post('/message/sendText/any', { number: '5511999990001', text: 'x' })]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
  });

  it('serves the paths under the prefix only, beside the gateway\'s own', async () => {
    const name = `prefixed-${Date.now()}`;
    const evo = evolution(prefixed);
    const created = await evo.post('/evolution/instance/create', { instanceName: name });
    expect(created.status, created.text).toBe(201);
    expect((await evo.get(`/evolution/instance/connectionState/${name}`)).body.instance.instanceName).toBe(name);
    expect((await evo.get(`/instance/connectionState/${name}`)).status).toBe(404);
    expect((await prefixed.api.get('/v1/chat/instances', { key: prefixed.tenant.liveKey })).body.data.some((entry: any) => entry.name === name)).toBe(true);
  });
});
