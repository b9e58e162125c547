import type { Actor } from '../actor.js';
import { Conflict } from '../errors.js';
import { requireCapabilities } from '../messages/outbound-content.js';
import type { Capability } from './capabilities.js';
import type { InstanceRecord } from './instances.ports.js';
import type { InstancesService } from './instances.service.js';

/**
 * The one check before an action the instance carries out on the network at once (edits, deletes,
 * reads, presence, number checks, group management; docs/messaging.md): the tenant's instance, its
 * engine able to do `capability` (422 not_supported), and connected now (409 instance_unavailable).
 */
export function actingInstance(deps: { instances: Pick<InstancesService, 'ownedInstance'>; capabilitiesOf: (integration: string) => readonly Capability[] }) {
  return async (actor: Actor, instanceId: string, capability: Capability): Promise<InstanceRecord> => {
    const instance = await deps.instances.ownedInstance(actor, instanceId);
    requireCapabilities(instance.engine, deps.capabilitiesOf(instance.engine), [capability]);
    if (instance.state !== 'connected') throw new Conflict('instance_unavailable', `The instance is ${instance.state}; it acts on the network once it is connected.`);
    return instance;
  };
}
