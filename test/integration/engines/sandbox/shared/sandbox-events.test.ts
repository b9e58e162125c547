import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectedSessionInstance, connectedV1Instance, eventually, newPhone } from '../../../../factories/sandbox.js';
import { failure } from '../../../../helpers/http.js';
import { MODES } from '../../../../kit/modes.js';
import { sandboxWorld } from '../../../../kit/worlds/sandbox.js';

const SESSION_EVENTS = ['groups.upsert', 'groups.update', 'contacts.update', 'presence.update'];

describe.each(MODES)('Sandbox: control endpoints raise the session-variant events — $name', (mode) => {
  const world = sandboxWorld(mode);
  let all: { id: string; secret: string };
  let narrow: { id: string };

  /** A session instance, connected, with a webhook to the receiver (every event, or only the ones given). */
  async function hooked(events?: string[]) {
    const created = await connectedSessionInstance(world.api, world.tenant.cookie, `events ${Math.random()}`);
    await eventually(() => world.api.get(`/chat/instances/${created.id}`, { cookie: world.tenant.cookie }), (r) => r.body.data.status === 'connected');
    const set = await world.api.post(`/v1/chat/instances/${created.id}/webhook`, { key: world.tenant.liveKey, body: { url: `${world.receiver.url}/${created.id}`, ...(events ? { events } : {}) } });
    expect(set.status, set.text).toBe(200);
    const secret = await world.api.post(`/chat/instances/${created.id}/webhook/secret`, { cookie: world.tenant.cookie });
    return { id: created.id, secret: secret.body.data.webhookSecret as string };
  }

  beforeAll(async () => {
    all = await hooked();
    narrow = await hooked(['messages.upsert']);
  }, 60_000);

  const bodiesOf = (instanceId: string, event: string) => world.receiver.of(event).filter((call) => JSON.parse(call.body).instance?.instanceId === instanceId);

  it('raises groups.upsert, groups.update, contacts.update and presence.update, signed, only where subscribed', async () => {
    const [a, b, c] = [newPhone().slice(1), newPhone().slice(1), newPhone().slice(1)];
    for (const instance of [all, narrow]) {
      const group = await world.api.post(`/sandbox/instances/${instance.id}/groups`, { body: { subject: 'Team', participants: [a, b] } });
      expect(group.status, group.text).toBe(200);
      const groupId = group.body.data.group.id;
      expect(groupId).toMatch(/^\d+@g\.us$/);
      const changed = await world.api.post(`/sandbox/instances/${instance.id}/groups/${groupId}`, { body: { author: a, subject: 'Team B', participants: { action: 'add', phones: [c] } } });
      expect(changed.status, changed.text).toBe(200);
      expect((await world.api.post(`/sandbox/instances/${instance.id}/contacts`, { body: { phone: b, pushName: 'Bea' } })).status).toBe(200);
      expect((await world.api.post(`/sandbox/instances/${instance.id}/presence`, { body: { phone: b, presence: 'composing' } })).status).toBe(200);
    }
    for (const event of SESSION_EVENTS) await eventually(async () => bodiesOf(all.id, event), (list) => list.length === 1);
    const body = (event: string) => JSON.parse(bodiesOf(all.id, event)[0]!.body);
    expect(body('groups.upsert')).toEqual({
      event: 'groups.upsert',
      instance: { instanceName: expect.any(String), instanceId: all.id },
      data: { groups: [{ id: expect.stringMatching(/@g\.us$/), subject: 'Team', description: null, owner: { phone: a }, participants: [{ phone: a, admin: 'superadmin' }, { phone: b, admin: null }], createdAt: expect.any(String) }] },
    });
    expect(body('groups.update').data).toEqual({ id: body('groups.upsert').data.groups[0].id, author: { phone: a }, subject: 'Team B', participants: { action: 'add', members: [{ phone: c }] } });
    expect(body('contacts.update').data).toEqual({ contacts: [{ phone: b, pushName: 'Bea' }] });
    expect(body('presence.update').data).toEqual({ phone: b, presence: 'composing', lastSeen: null });
    for (const event of SESSION_EVENTS) {
      const [delivery] = bodiesOf(all.id, event);
      // Rotated just now: the new secret verifies webhook-signature (docs/webhooks.md).
      expect(() => new Webhook(all.secret.slice('whsec_'.length)).verify(delivery!.body, delivery!.headers as Record<string, string>)).not.toThrow();
    }
    // The narrow instance's events were raised before the ones above arrived; none of them was delivered.
    const log = await world.api.get(`/v1/chat/instances/${narrow.id}/webhook/deliveries`, { key: world.tenant.liveKey });
    expect(log.body.data.filter((delivery: { event: string }) => SESSION_EVENTS.includes(delivery.event))).toEqual([]);
    expect(SESSION_EVENTS.flatMap((event) => bodiesOf(narrow.id, event))).toEqual([]);
  });

  it('refuses bad input with 400, an unknown instance with 404, a v1 instance with 409', async () => {
    const phone = newPhone().slice(1);
    const cases: Array<[string, unknown, RegExp]> = [
      ['groups', { participants: [phone] }, /subject/],
      ['groups', { subject: 'x', participants: [] }, /participants/],
      ['groups', { subject: 'x', participants: ['abc'] }, /participants\.0/],
      ['groups/120363000000000001@g.us', {}, /at least one of/],
      ['groups/not-a-group', { subject: 'x' }, /group id/],
      ['groups/120363000000000001@g.us', { participants: { action: 'kick', phones: [phone] } }, /participants\.action/],
      ['contacts', { phone }, /pushName or picture/],
      ['contacts', { phone, picture: 'new' }, /picture/],
      ['presence', { phone, presence: 'sleeping' }, /presence/],
      ['presence', { presence: 'available' }, /phone/],
      ['presence', { phone, presence: 'unavailable', lastSeen: 'yesterday' }, /lastSeen/],
    ];
    for (const [path, body, message] of cases) {
      const refused = await world.api.post(`/sandbox/instances/${all.id}/${path}`, { body });
      expect(refused.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(refused.body).toEqual(failure('invalid_request'));
      expect(refused.body.error.message).toMatch(message);
    }
    const unknown = await world.api.post('/sandbox/instances/00000000-0000-4000-8000-000000000000/presence', { body: { phone, presence: 'available' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(failure('not_found'));
    const v1 = await connectedV1Instance(world.api, world.tenant.liveKey, `v1 events ${Date.now()}`);
    const refused = await world.api.post(`/sandbox/instances/${v1.id}/contacts`, { body: { phone, pushName: 'Bea' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(failure('instance_unavailable'));
  });
});
