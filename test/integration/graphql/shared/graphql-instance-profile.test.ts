import { beforeAll, describe, expect, it } from 'vitest';
import { newPhone } from '../../../factories/sandbox.js';
import { MODES } from '../../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../../kit/worlds/sandbox.js';

/** The instance's own profile and privacy over GraphQL (docs/graphql.md), on the sandbox, as its phone's side sees them. */

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const READ = `query ($id: ID!) { instance(id: $id) { profile { name about picture } privacy { lastSeen online picture about readReceipts groupsAdd } } }`;
const PROFILE = `mutation ($input: UpdateInstanceProfileInput!) { updateInstanceProfile(input: $input) { profile { name about picture } userErrors { code field message } } }`;
const PRIVACY = `mutation ($input: UpdateInstancePrivacyInput!) { updateInstancePrivacy(input: $input) { privacy { lastSeen online picture about readReceipts groupsAdd } userErrors { code field message } } }`;

describe.each(MODES)('GraphQL: an instance\'s own profile, privacy and block list — $name', (mode) => {
  const world = sandboxWorld(mode);
  let a: { id: string; phone: string };
  const gql = (query: string, variables: Record<string, unknown>) => world.api.graphql(query, variables, { key: world.tenant.liveKey });
  const seen = async () => (await world.api.get(`/sandbox/phones/${a.phone.replace(/^\+/, '')}/profile`)).body.data;

  beforeAll(async () => {
    a = await connectedInstance(world, `graphql-profile-${Date.now()}`);
  }, 60_000);

  it('sets the profile and privacy, reads them back, and the phone\'s side shows them', async () => {
    const set = await gql(PROFILE, { input: { instanceId: a.id, name: 'Acme', about: 'Here to help', picture: { data: PNG, mimetype: 'image/png' } } });
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.updateInstanceProfile).toEqual({ profile: { name: 'Acme', about: 'Here to help', picture: expect.stringMatching(/\/picture$/) }, userErrors: [] });
    const privacy = await gql(PRIVACY, { input: { instanceId: a.id, lastSeen: 'none', groupsAdd: 'contacts' } });
    expect(privacy.body.data.updateInstancePrivacy.userErrors).toEqual([]);
    expect(privacy.body.data.updateInstancePrivacy.privacy).toMatchObject({ lastSeen: 'none', groupsAdd: 'contacts', online: 'all' });

    const read = await gql(READ, { id: a.id });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.instance).toEqual({ profile: set.body.data.updateInstanceProfile.profile, privacy: privacy.body.data.updateInstancePrivacy.privacy });
    expect(await seen()).toMatchObject({ name: 'Acme', about: 'Here to help', privacy: { lastSeen: 'none', groupsAdd: 'contacts' } });

    const blocked = newPhone().replace(/^\+/, '');
    expect((await world.api.post(`/v1/chat/instances/${a.id}/contacts/${blocked}/block`, { key: world.tenant.liveKey })).status).toBe(200);
    expect((await gql(`query ($id: ID!) { instance(id: $id) { blockedPhones } }`, { id: a.id })).body.data.instance.blockedPhones).toEqual([blocked]);

    const removed = await gql(PROFILE, { input: { instanceId: a.id, picture: null } });
    expect(removed.body.data.updateInstanceProfile.profile).toEqual({ name: 'Acme', about: 'Here to help', picture: null });
  });

  it('answers bad input as userErrors naming the field, changing nothing', async () => {
    const badName = await gql(PROFILE, { input: { instanceId: a.id, name: 'x'.repeat(26), picture: { data: PNG, mimetype: 'text/plain' } } });
    expect(badName.body.data.updateInstanceProfile.profile).toBeNull();
    expect(badName.body.data.updateInstanceProfile.userErrors.map((error: { field: string[] }) => error.field[0])).toEqual(expect.arrayContaining(['name', 'picture']));
    const badPrivacy = await gql(PRIVACY, { input: { instanceId: a.id, online: null } });
    expect(badPrivacy.body.data.updateInstancePrivacy.userErrors.map((error: { field: string[] }) => error.field)).toEqual([['online']]);
    expect((await seen()).name).toBe('Acme');
  });
});
