import type { Actor } from '../actor.js';
import type { Capability } from '../network/capabilities.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { Ownership } from '../ownership/ownership.js';
import type { UrlPolicy } from '../webhooks/url-policy.js';
import type { OwnProfile, OwnProfileChange, PrivacySettings } from '../network/own-profile.js';
import { actingInstance } from '../instances/acting-instance.js';
import { allValid, parseInput } from '../validation.js';
import { privacyInput, profileInput } from './profile.input.js';

export type ProfileService = ReturnType<typeof createProfileService>;

/**
 * The instance's own account (docs/settings.md, "Profile and privacy"): its name, about text and
 * picture, its privacy settings and its block list, read from and set on the network by the
 * instance's owner, as far as the engine can.
 */
export function createProfileService(deps: {
  instances: Pick<InstancesService, 'ownedInstance'>;
  ownership: Pick<Ownership, 'perform'>;
  capabilitiesOf: (integration: string) => readonly Capability[];
  urls: Pick<UrlPolicy, 'check'>;
}) {
  const acting = actingInstance(deps);

  async function profileChange(input: unknown): Promise<OwnProfileChange> {
    const data = parseInput(profileInput, input);
    const change: OwnProfileChange = {};
    if (data.name !== undefined) change.name = data.name;
    if (data.about !== undefined) change.about = data.about;
    if (data.picture !== undefined) change.picture = data.picture && 'url' in data.picture ? { url: await deps.urls.check(data.picture.url, 'picture.url') } : data.picture;
    return change;
  }

  return {
    async profile(actor: Actor, instanceId: string): Promise<OwnProfile> {
      const instance = await acting(actor, instanceId, 'own_profile');
      return (await deps.ownership.perform(instance.id, { kind: 'own_profile', change: null })).ownProfile!;
    },

    /** Answers the profile as the network shows it after the change. */
    async updateProfile(actor: Actor, instanceId: string, input: unknown): Promise<OwnProfile> {
      const [instance, change] = await allValid(() => acting(actor, instanceId, 'own_profile'), () => profileChange(input));
      return (await deps.ownership.perform(instance.id, { kind: 'own_profile', change })).ownProfile!;
    },

    async privacy(actor: Actor, instanceId: string): Promise<Partial<PrivacySettings>> {
      const instance = await acting(actor, instanceId, 'privacy');
      return (await deps.ownership.perform(instance.id, { kind: 'privacy', change: null })).privacy!;
    },

    async updatePrivacy(actor: Actor, instanceId: string, input: unknown): Promise<Partial<PrivacySettings>> {
      const [instance, change] = await allValid(() => acting(actor, instanceId, 'privacy'), () => parseInput(privacyInput, input) as Partial<PrivacySettings>);
      return (await deps.ownership.perform(instance.id, { kind: 'privacy', change })).privacy!;
    },

    /** The phones the account blocked, as the network keeps the list (blocks made on the phone too). */
    async blocked(actor: Actor, instanceId: string): Promise<string[]> {
      const instance = await acting(actor, instanceId, 'block');
      return (await deps.ownership.perform(instance.id, { kind: 'blocklist' })).blocked!;
    },
  };
}
