import { verify as verifyHubSignature } from '@octokit/webhooks-methods';
import { beforeAll, describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedSession } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { PNG_1PX } from '../../../kit/files.js';

describe.each(MODES)('CHAT-BAILEYS: groups, contacts and presence from the network as session events — $name', (mode) => {
  const world = baileysWorld(mode);
  /** Subscribed to every event of its variant (the default). */
  let all: { id: string; phone: string; secret: string };
  /** Subscribed to messages.upsert only. */
  let narrow: { id: string; phone: string; secret: string };

  beforeAll(async () => {
    const { api, tenant, network, receiver } = world;
    all = await pairedSession(api, tenant.cookie, network, `events all ${Date.now()}`, undefined, { webhookUrl: `${receiver.url}/all` });
    narrow = await pairedSession(api, tenant.cookie, network, `events narrow ${Date.now()}`, undefined, { webhookUrl: `${receiver.url}/narrow` });
    const narrowed = await api.post(`/v1/chat/instances/${narrow.id}/webhook`, { key: tenant.liveKey, body: { url: `${receiver.url}/narrow`, events: ['messages.upsert'] } });
    expect(narrowed.status, narrowed.text).toBe(200);
  }, 90_000);

  const deliveriesTo = (instanceId: string, event: string) =>
    world.receiver.of(event).filter((call) => JSON.parse(call.body).instance?.instanceId === instanceId);
  const dataOf = (instanceId: string, event: string) => deliveriesTo(instanceId, event).map((call) => JSON.parse(call.body).data);
  const waitFor = <T>(read: () => T[], accept: (list: T[]) => boolean) => eventually(async () => read(), accept, 20_000);

  it('each event arrives signed where subscribed, and nowhere it is not', async () => {
    const owner = newNetworkPhone().slice(1);
    const friend = newNetworkPhone().slice(1);
    const group = world.network.groupCreate(owner, 'Team', [all.phone, narrow.phone]);
    const [upsert] = await waitFor(() => dataOf(all.id, 'groups.upsert'), (list) => list.length === 1);
    expect(upsert).toEqual({
      groups: [
        {
          id: group,
          subject: 'Team',
          description: null,
          owner: { phone: owner },
          participants: expect.arrayContaining([
            { phone: owner, admin: 'superadmin' },
            { phone: all.phone.slice(1), admin: null },
            { phone: narrow.phone.slice(1), admin: null },
          ]),
          createdAt: expect.any(String),
        },
      ],
    });

    world.network.groupSetSubject(owner, group, 'Team B');
    await waitFor(() => dataOf(all.id, 'groups.update'), (list) => list.some((change) => change.subject === 'Team B'));
    expect(dataOf(all.id, 'groups.update').find((change) => change.subject === 'Team B')).toEqual({ id: group, author: { phone: owner }, subject: 'Team B' });
    const newcomer = newNetworkPhone().slice(1);
    world.network.groupAddParticipants(owner, group, [newcomer]);
    const [added] = await waitFor(() => dataOf(all.id, 'groups.update').filter((change) => change.participants), (list) => list.length === 1);
    expect(added).toEqual({ id: group, author: { phone: owner }, participants: { action: 'add', members: [{ phone: newcomer }] } });

    world.network.setProfile(friend, { pushName: 'Bob' });
    await world.network.send(friend, all.phone, { text: 'I am Bob now' });
    await world.network.send(friend, all.phone, { text: 'still Bob' });
    await waitFor(() => dataOf(all.id, 'messages.upsert'), (list) => list.filter((data) => data.pushName === 'Bob').length === 2);
    await waitFor(() => dataOf(all.id, 'contacts.update'), (list) => list.some((data) => data.contacts.some((contact: { pushName?: string }) => contact.pushName === 'Bob')));
    world.network.setProfile(friend, { picture: PNG_1PX, to: [all.phone, narrow.phone] });
    await waitFor(() => dataOf(all.id, 'contacts.update'), (list) => list.some((data) => data.contacts.some((contact: { picture?: string }) => contact.picture === 'changed')));
    // A push name repeated with every message is news once.
    expect(dataOf(all.id, 'contacts.update').flatMap((data) => data.contacts).filter((contact) => contact.pushName === 'Bob')).toEqual([{ phone: friend, pushName: 'Bob' }]);

    world.network.presence(friend, all.phone, 'composing');
    world.network.presence(friend, narrow.phone, 'composing');
    const [typing] = await waitFor(() => dataOf(all.id, 'presence.update'), (list) => list.length >= 1);
    expect(typing).toEqual({ phone: friend, presence: 'composing', lastSeen: null });

    // Every delivery is signed with the instance's secret.
    for (const event of ['groups.upsert', 'groups.update', 'contacts.update', 'presence.update']) {
      const deliveries = deliveriesTo(all.id, event);
      expect(deliveries.length, event).toBeGreaterThan(0);
      for (const delivery of deliveries) expect(await verifyHubSignature(all.secret, delivery.body, String(delivery.headers['x-hub-signature-256']))).toBe(true);
    }
    // The narrow instance heard all of it too, and delivered none: a message sent after everything arrives, the events never do.
    await world.network.send(friend, narrow.phone, { text: 'after everything' });
    await waitFor(() => world.receiver.of('messages.upsert').filter((call) => JSON.parse(call.body).instance?.instanceId === narrow.id), (list) => list.length === 1);
    const SESSION_EVENTS = ['groups.upsert', 'groups.update', 'contacts.update', 'presence.update'];
    const log = await world.api.get(`/v1/chat/instances/${narrow.id}/webhook/deliveries`, { key: world.tenant.liveKey });
    expect(log.body.data.map((delivery: { event: string }) => delivery.event)).toContain('messages.upsert');
    expect(log.body.data.filter((delivery: { event: string }) => SESSION_EVENTS.includes(delivery.event))).toEqual([]);
    expect(SESSION_EVENTS.flatMap((event) => deliveriesTo(narrow.id, event))).toEqual([]);
  });
});
