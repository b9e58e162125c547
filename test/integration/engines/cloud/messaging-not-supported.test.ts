import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, newPhone } from '../../../factories/sandbox.js';
import { failure } from '../../../helpers/http.js';
import { MODES } from '../../../kit/modes.js';
import { cloudWorld } from '../../../kit/worlds/cloud.js';

/**
 * What the business API does not document (polls, mentions, groups, edits,
 * deletes, number checks) is refused on a CHAT-CLOUD instance with 422 not_supported, naming the
 * integration and the capability, before anything is stored or sent.
 */
describe.each(MODES)('Messaging surface: not_supported on an engine that lacks the capability — $name', (mode) => {
  const world = cloudWorld(mode);
  let instanceId: string;
  let sentId: string;

  beforeAll(async () => {
    const credentials = {
      phoneNumberId: `20${Date.now() % 1_000_000_000}`,
      accessToken: `EAAG-token-${randomBytes(12).toString('hex')}`,
      appSecret: `app-secret-${randomBytes(12).toString('hex')}`,
    };
    world.cloud.addNumber({ ...credentials, displayPhoneNumber: `1555${String(Date.now() % 10_000_000).padStart(7, '0')}` });
    const created = await world.api.post('/v1/chat/instances', { key: world.tenant.liveKey, body: { name: `cloud ${Date.now()}`, integration: 'CHAT-CLOUD', cloud: credentials } });
    expect(created.status, created.text).toBe(201);
    instanceId = created.body.data.id;
    await eventually(() => world.api.get(`/v1/chat/instances/${instanceId}`, { key: world.tenant.liveKey }), (r) => r.body.data.status === 'connected', 10_000);
    const sent = await world.api.post(`/v1/chat/instances/${instanceId}/messages`, { key: world.tenant.liveKey, body: { to: newPhone().slice(1), text: 'Hello' } });
    expect(sent.status, sent.text).toBe(200);
    sentId = sent.body.data.id;
  }, 60_000);

  const stored = () => world.gw.gateway.infra.db.prisma.message.count({ where: { tenantId: world.tenant.tenantId } });

  it('lists CHAT-CLOUD without the capabilities it lacks', async () => {
    const answer = await world.api.get('/v1/integrations', { key: world.tenant.liveKey });
    expect(answer.status).toBe(200);
    const cloud = answer.body.data.find((entry: { integration: string }) => entry.integration === 'CHAT-CLOUD');
    expect(cloud.capabilities).toEqual(expect.arrayContaining(['text', 'media', 'template']));
    for (const lacking of ['poll', 'mentions', 'groups', 'edit', 'delete', 'number_check']) expect(cloud.capabilities).not.toContain(lacking);
  });

  it('refuses each send and action it lacks with 422 naming CHAT-CLOUD and the capability, storing nothing', async () => {
    const to = newPhone().slice(1);
    const sends: Array<[unknown, string]> = [
      [{ to, text: `Hi @${to}`, mentions: [to] }, 'mentions'],
      [{ to, poll: { name: 'Lunch?', options: ['Pizza', 'Sushi'] } }, 'poll'],
      [{ to: '120363012345678901@g.us', text: 'Hi all' }, 'groups'],
    ];
    const actions: Array<[string, string, unknown, string]> = [
      ['PATCH', `/v1/chat/instances/${instanceId}/messages/${sentId}`, { text: 'Hello again' }, 'edit'],
      ['DELETE', `/v1/chat/instances/${instanceId}/messages/${sentId}`, undefined, 'delete'],
      ['POST', `/v1/chat/instances/${instanceId}/contacts/check`, { phones: [to] }, 'number_check'],
    ];
    const before = await stored();
    const refusals = [
      ...(await Promise.all(sends.map(async ([body, capability]) => [await world.api.post(`/v1/chat/instances/${instanceId}/messages`, { key: world.tenant.liveKey, body }), capability] as const))),
      ...(await Promise.all(actions.map(async ([method, path, body, capability]) => [await world.api.request(method, path, { key: world.tenant.liveKey, body }), capability] as const))),
    ];
    for (const [answer, capability] of refusals) {
      expect(answer.status, `${capability}: ${answer.text}`).toBe(422);
      expect(answer.body).toEqual(failure('not_supported'));
      expect(answer.body.error.message).toContain('CHAT-CLOUD');
      expect(answer.body.error.message).toContain(capability);
    }
    expect(await stored()).toBe(before);
    const message = await world.gw.gateway.infra.db.prisma.message.findUnique({ where: { id: sentId } });
    expect(message).toMatchObject({ text: 'Hello', editedAt: null });
  });
});
