import { describe, expect, it } from 'vitest';
import { newNetworkPhone, pairedV1 } from '../../../factories/chat-network.js';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { baileysWorld } from '../../../kit/worlds/baileys.js';
import { PNG_1PX } from '../../../kit/files.js';

/** The instance's own profile, privacy and block list on CHAT-BAILEYS (docs/settings.md "Profile and privacy"), as the local network keeps them and other phones see them. */
describe.each(MODES)('CHAT-BAILEYS: own profile, privacy and block list — $name', (mode) => {
  const world = baileysWorld(mode);
  const key = () => ({ key: world.tenant.liveKey });
  const cookie = () => ({ cookie: world.tenant.cookie });
  const digits = (phone: string) => phone.replace(/^\+/, '');

  it('sets the about text and picture; another phone sees them, and the session variant reads the same', { timeout: 90_000 }, async () => {
    const a = await pairedV1(world.api, world.tenant.liveKey, world.network, `own-profile-${Date.now()}`);
    const set = await world.api.put(`/v1/chat/instances/${a.id}/profile`, { ...key(), body: { about: 'Open 9 to 5', picture: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' } } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toMatchObject({ about: 'Open 9 to 5', picture: expect.stringMatching(/^https:\/\//) });

    // The network holds what the phone's device sent: the about text, and the picture as the 640×640 JPEG the client makes.
    const seen = world.network.profileOf(a.phone);
    expect(seen.about).toBe('Open 9 to 5');
    expect(seen.picture?.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await world.api.get(`/chat/instances/${a.id}/profile`, cookie())).body.data).toEqual(set.body.data);

    // Another phone, linked to its own instance, fetches the profile from the network.
    const b = await pairedV1(world.api, world.tenant.liveKey, world.network, `profile-viewer-${Date.now()}`);
    const contact = await world.api.get(`/v1/chat/instances/${b.id}/contacts/${digits(a.phone)}`, key());
    expect(contact.status, contact.text).toBe(200);
    expect(contact.body.data).toMatchObject({ about: 'Open 9 to 5', picture: { url: expect.stringMatching(/^https:\/\//) } });

    const removed = await world.api.put(`/chat/instances/${a.id}/profile`, { ...cookie(), body: { picture: null } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data).toMatchObject({ about: 'Open 9 to 5', picture: null });
    expect(world.network.profileOf(a.phone).picture).toBeNull();
  });

  it('sets the name once the phone shared its app-state key, and other phones see it', { timeout: 90_000 }, async () => {
    const a = await pairedV1(world.api, world.tenant.liveKey, world.network, `own-name-${Date.now()}`);
    // The name is an app-state setting: a device without the phone's key cannot change it.
    const refused = await world.api.put(`/v1/chat/instances/${a.id}/profile`, { ...key(), body: { name: 'Acme Support' } });
    expect(refused.status, refused.text).toBe(502);
    expect(world.network.shareAppStateKey(a.phone)).toBe(1);
    // The device takes the key as it processes the phone's message: tried until it has.
    const named = await eventually(() => world.api.put(`/v1/chat/instances/${a.id}/profile`, { ...key(), body: { name: 'Acme Support' } }), (answer) => answer.status !== 502, 20_000);
    expect(named.status, named.text).toBe(200);
    expect(named.body.data.name).toBe('Acme Support');
    // Other phones see it: the network names the account by it in what it delivers.
    expect(world.network.profileOf(a.phone).name).toBe('Acme Support');
    expect((await world.api.get(`/chat/instances/${a.id}/profile`, cookie())).body.data.name).toBe('Acme Support');
  });

  it('changes privacy settings as the network stores and enforces them, and refuses bad values naming the field', { timeout: 90_000 }, async () => {
    const a = await pairedV1(world.api, world.tenant.liveKey, world.network, `privacy-${Date.now()}`);
    const before = await world.api.get(`/v1/chat/instances/${a.id}/privacy`, key());
    expect(before.status, before.text).toBe(200);
    expect(before.body.data).toEqual({ lastSeen: 'all', online: 'all', picture: 'all', about: 'all', readReceipts: 'all', groupsAdd: 'all' });
    const set = await world.api.put(`/chat/instances/${a.id}/privacy`, { ...cookie(), body: { lastSeen: 'contacts', online: 'match_last_seen', picture: 'none', about: 'contact_blacklist', readReceipts: 'none', groupsAdd: 'contacts' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({ lastSeen: 'contacts', online: 'match_last_seen', picture: 'none', about: 'contact_blacklist', readReceipts: 'none', groupsAdd: 'contacts' });
    expect(world.network.privacyOf(a.phone)).toMatchObject({ last: 'contacts', online: 'match_last_seen', profile: 'none', status: 'contact_blacklist', readreceipts: 'none', groupadd: 'contacts' });
    expect((await world.api.get(`/v1/chat/instances/${a.id}/privacy`, key())).body.data).toEqual(set.body.data);

    // The network keeps to it: with the picture shown to nobody, another phone gets none.
    expect((await world.api.put(`/v1/chat/instances/${a.id}/profile`, { ...key(), body: { picture: { data: PNG_1PX.toString('base64'), mimetype: 'image/png' } } })).status).toBe(200);
    const b = await pairedV1(world.api, world.tenant.liveKey, world.network, `privacy-viewer-${Date.now()}`);
    const contact = await world.api.get(`/v1/chat/instances/${b.id}/contacts/${digits(a.phone)}`, key());
    expect(contact.status, contact.text).toBe(200);
    expect(contact.body.data.picture).toBeNull();
    expect(world.network.profileOf(a.phone).picture).not.toBeNull();

    const refused = await world.api.put(`/v1/chat/instances/${a.id}/privacy`, { ...key(), body: { lastSeen: 'friends', readReceipts: 'contacts' } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error.message).toMatch(/(^|; )lastSeen: /);
    expect(refused.body.error.message).toMatch(/(^|; )readReceipts: /);
    expect(world.network.privacyOf(a.phone).last).toBe('contacts');
  });

  it('lists the block list the network keeps, and the network withholds a blocked phone\'s messages', { timeout: 60_000 }, async () => {
    const a = await pairedV1(world.api, world.tenant.liveKey, world.network, `blocklist-${Date.now()}`);
    const [pest, friend] = [digits(newNetworkPhone()), digits(newNetworkPhone())];
    for (const phone of [pest, friend]) expect((await world.api.post(`/v1/chat/instances/${a.id}/contacts/${phone}/block`, key())).status).toBe(200);
    expect((await world.api.post(`/v1/chat/instances/${a.id}/contacts/${friend}/unblock`, key())).status).toBe(200);
    const list = await world.api.get(`/v1/chat/instances/${a.id}/contacts/blocked`, key());
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual([{ phone: pest }]);
    expect((await world.api.get(`/chat/instances/${a.id}/contacts/blocked`, cookie())).body.data).toEqual([{ phone: pest }]);
    expect(world.network.blocked(a.phone)).toEqual([pest]);

    // Blocked, then unblocked: only what was sent after the unblock arrives.
    const withheld = await world.network.send(pest, a.phone, { text: 'while blocked' });
    expect((await world.api.post(`/v1/chat/instances/${a.id}/contacts/${pest}/unblock`, key())).status).toBe(200);
    const delivered = await world.network.send(pest, a.phone, { text: 'after the unblock' });
    const messages = await eventually(
      async () => (await world.api.get(`/v1/chat/instances/${a.id}/chats/${pest}/messages`, key())).body.data ?? [],
      (list: Array<{ networkMessageId: string }>) => list.some((message) => message.networkMessageId === delivered),
      20_000,
    );
    expect(messages.map((message: { networkMessageId: string }) => message.networkMessageId)).not.toContain(withheld);
    expect((await world.api.get(`/v1/chat/instances/${a.id}/contacts/blocked`, key())).body.data).toEqual([]);
  });
});
