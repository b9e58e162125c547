import { beforeAll, describe, expect, it } from 'vitest';
import { newPhone } from '../../../../factories/sandbox.js';
import { MODES } from '../../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../../kit/worlds/sandbox.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The instance's own profile, privacy and block list on the sandbox (docs/settings.md "Profile and privacy"), seen from the phones' side. */
describe.each(MODES)('Sandbox: own profile and privacy — $name', (mode) => {
  const world = sandboxWorld(mode);
  let a: { id: string; phone: string };
  const key = () => ({ key: world.tenant.liveKey });
  const digits = () => a.phone.replace(/^\+/, '');
  const seen = async () => (await world.api.get(`/sandbox/phones/${digits()}/profile`)).body.data;

  beforeAll(async () => {
    a = await connectedInstance(world, `own-profile-${Date.now()}`);
  }, 60_000);

  it('sets name, about and picture (bytes, then a URL, then none), and the network shows them to others', async () => {
    const set = await world.api.put(`/v1/chat/instances/${a.id}/profile`, { ...key(), body: { name: 'Acme Support', about: 'We answer 9-17', picture: { data: PNG, mimetype: 'image/png' } } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({ name: 'Acme Support', about: 'We answer 9-17', picture: expect.stringMatching(new RegExp(`/sandbox/phones/${digits()}/picture$`)) });
    expect(await seen()).toMatchObject({ name: 'Acme Support', about: 'We answer 9-17' });
    const picture = await fetch(set.body.data.picture.startsWith('/') ? new URL(set.body.data.picture, world.gw.url) : set.body.data.picture);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer()).toString('base64')).toBe(PNG);

    // The session variant reads the same; a field not given stays.
    const bySession = await world.api.put(`/chat/instances/${a.id}/profile`, { cookie: world.tenant.cookie, body: { picture: { url: 'https://pictures.example/acme.png' } } });
    expect(bySession.status, bySession.text).toBe(200);
    expect(bySession.body.data).toEqual({ name: 'Acme Support', about: 'We answer 9-17', picture: 'https://pictures.example/acme.png' });
    expect((await world.api.get(`/chat/instances/${a.id}/profile`, { cookie: world.tenant.cookie })).body.data).toEqual(bySession.body.data);
    const removed = await world.api.put(`/v1/chat/instances/${a.id}/profile`, { ...key(), body: { picture: null } });
    expect(removed.body.data.picture).toBeNull();
    expect(await seen()).toMatchObject({ name: 'Acme Support', picture: null });
  });

  it('keeps privacy settings as set, the others staying', async () => {
    const before = await world.api.get(`/v1/chat/instances/${a.id}/privacy`, key());
    expect(before.status, before.text).toBe(200);
    expect(before.body.data).toEqual({ lastSeen: 'all', online: 'all', picture: 'all', about: 'all', readReceipts: 'all', groupsAdd: 'all' });
    const set = await world.api.put(`/chat/instances/${a.id}/privacy`, { cookie: world.tenant.cookie, body: { lastSeen: 'contacts', readReceipts: 'none', groupsAdd: 'contact_blacklist' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({ ...before.body.data, lastSeen: 'contacts', readReceipts: 'none', groupsAdd: 'contact_blacklist' });
    expect((await seen()).privacy).toEqual(set.body.data);
    expect((await world.api.get(`/v1/chat/instances/${a.id}/privacy`, key())).body.data).toEqual(set.body.data);
  });

  it('lists the block list as the network keeps it', async () => {
    const [one, two] = [newPhone(), newPhone()].map((phone) => phone.replace(/^\+/, ''));
    for (const phone of [one, two]) expect((await world.api.post(`/v1/chat/instances/${a.id}/contacts/${phone}/block`, key())).status).toBe(200);
    expect((await world.api.post(`/v1/chat/instances/${a.id}/contacts/${one}/unblock`, key())).status).toBe(200);
    const list = await world.api.get(`/v1/chat/instances/${a.id}/contacts/blocked`, key());
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual([{ phone: two }]);
    expect((await world.api.get(`/chat/instances/${a.id}/contacts/blocked`, { cookie: world.tenant.cookie })).body.data).toEqual([{ phone: two }]);
  });

  it('refuses bad input with 400 naming the field, and changes nothing', async () => {
    const refused = async (path: string, body: unknown, field: string) => {
      const answer = await world.api.put(`/v1/chat/instances/${a.id}/${path}`, { ...key(), body });
      expect(answer.status, answer.text).toBe(400);
      if (field.includes(' ')) expect(answer.body.error.message).toContain(field);
      else expect(answer.body.error.message).toMatch(new RegExp(`(^|; )${field}(\\.\\w+)*: `));
    };
    await refused('profile', { name: '' }, 'name');
    await refused('profile', { name: 'x'.repeat(26) }, 'name');
    await refused('profile', { about: 'x'.repeat(140) }, 'about');
    await refused('profile', { picture: { data: 'not base64!', mimetype: 'image/png' } }, 'picture');
    await refused('profile', { picture: { data: PNG, mimetype: 'text/plain' } }, 'picture');
    await refused('profile', { picture: { url: 'http://127.0.0.1/x.png', extra: 1 } }, 'picture');
    await refused('profile', { nickname: 'x' }, 'nickname');
    await refused('profile', {}, 'give at least one of name, about, picture');
    await refused('privacy', { lastSeen: 'everyone' }, 'lastSeen');
    await refused('privacy', { online: 'contacts' }, 'online');
    await refused('privacy', { readReceipts: 'contacts' }, 'readReceipts');
    await refused('privacy', { groupsAdd: 'none' }, 'groupsAdd');
    await refused('privacy', {}, 'give at least one of lastSeen');
    expect((await seen()).privacy.online).toBe('all');
  });
});
