// CHAT-CLOUD's own profile (docs/settings.md, "Profile and privacy"): the business API's business
// profile carries the about text and the picture; the name (the verified name) and privacy are refused.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { cloudWorld } from '../../../kit/worlds/cloud.js';

let sequence = 0;

describe.each(MODES)('CHAT-CLOUD business profile — $name', (mode) => {
  const world = cloudWorld(mode);
  const key = () => ({ key: world.tenant.liveKey });

  async function connected() {
    sequence++;
    const credentials = {
      phoneNumberId: `23${Date.now() % 1_000_000_000}${sequence}`,
      accessToken: `EAAG-token-${randomBytes(12).toString('hex')}`,
      appSecret: `app-secret-${randomBytes(12).toString('hex')}`,
    };
    world.cloud.addNumber({ ...credentials, displayPhoneNumber: `1558${String(1_000_000 + ((Date.now() + sequence) % 9_000_000)).slice(0, 7)}`, verifiedName: 'Acme Shoes' });
    const created = await world.api.post('/v1/chat/instances', { ...key(), body: { name: `business profile ${sequence} ${Date.now()}`, integration: 'CHAT-CLOUD', cloud: credentials } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    await eventually(() => world.api.get(`/v1/chat/instances/${id}`, key()), (r) => r.body.data.status === 'connected', 10_000);
    return { id, pnid: credentials.phoneNumberId };
  }

  it('reads the business profile and sets its about text, on both variants, as the API keeps it', async () => {
    const { id, pnid } = await connected();
    world.cloud.businessProfile(pnid, { about: 'Shoes since 1990', profilePictureUrl: 'https://pps.example/acme.jpg' });
    const read = await world.api.get(`/v1/chat/instances/${id}/profile`, key());
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toEqual({ name: 'Acme Shoes', about: 'Shoes since 1990', picture: 'https://pps.example/acme.jpg' });

    const set = await world.api.put(`/chat/instances/${id}/profile`, { cookie: world.tenant.cookie, body: { about: 'Open Monday to Saturday' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({ name: 'Acme Shoes', about: 'Open Monday to Saturday', picture: 'https://pps.example/acme.jpg' });
    expect(world.cloud.businessProfile(pnid).about).toBe('Open Monday to Saturday');
  });

  it('refuses the name, a picture and privacy with 422 not_supported, changing nothing', async () => {
    const { id, pnid } = await connected();
    world.cloud.businessProfile(pnid, { about: 'Unchanged' });
    for (const body of [{ name: 'Acme' }, { picture: { url: 'https://pictures.example/a.png' } }, { picture: null }]) {
      const refused = await world.api.put(`/v1/chat/instances/${id}/profile`, { ...key(), body });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.error.code).toBe('not_supported');
      expect(refused.body.error.message).toContain(`the field ${Object.keys(body)[0]}`);
    }
    for (const answer of [await world.api.get(`/v1/chat/instances/${id}/privacy`, key()), await world.api.put(`/chat/instances/${id}/privacy`, { cookie: world.tenant.cookie, body: { lastSeen: 'none' } })]) {
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body.error.code).toBe('not_supported');
    }
    expect(world.cloud.businessProfile(pnid).about).toBe('Unchanged');
  });
});
