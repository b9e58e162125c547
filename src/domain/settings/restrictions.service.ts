import type { Actor } from '../actor.js';
import { actingInstance } from '../instances/acting-instance.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { Capability } from '../network/capabilities.js';
import type { AccountRestrictions } from '../network/engine.port.js';
import type { Ownership } from '../ownership/ownership.js';

export type RestrictionsService = ReturnType<typeof createRestrictionsService>;

/**
 * The account's reach-out timelock and new-contact cap as the network tells them now (docs/settings.md,
 * "Restrictions"): asked by the instance's owner; an engine without `reach_limits` is 422 not_supported.
 */
export function createRestrictionsService(deps: {
  instances: Pick<InstancesService, 'ownedInstance'>;
  ownership: Pick<Ownership, 'perform'>;
  capabilitiesOf: (integration: string) => readonly Capability[];
}) {
  const connectedInstance = actingInstance(deps);
  return {
    async read(actor: Actor, instanceId: string): Promise<AccountRestrictions> {
      const instance = await connectedInstance(actor, instanceId, 'reach_limits');
      const { restrictions } = await deps.ownership.perform(instance.id, { kind: 'restrictions' });
      return restrictions ?? { timelock: null, messageCap: null };
    },
  };
}
