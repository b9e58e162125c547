import type { Actor } from '../actor.js';
import { Conflict } from '../errors.js';
import { requireCapabilities } from '../messages/outbound-content.js';
import type { Capability } from '../network/capabilities.js';
import type { InstanceRecord } from './instances.ports.js';
import type { InstancesService } from './instances.service.js';

/**
 * The one rule of deactivation (docs/messaging.md "Inactive instances"): an inactive instance sends
 * nothing and acts on nothing until it is activated again. Managing it stays possible.
 */
export function refuseInactive(instance: { active: boolean }): void {
  if (!instance.active) throw new Conflict('instance_inactive', 'The instance is inactive; toggle it active to send or act through it.');
}

/**
 * The one check before an action the instance carries out on the network at once (docs/messaging.md):
 * the tenant's instance, active (409 instance_inactive), its engine able to do `capability` (422
 * not_supported), and connected now (409 instance_unavailable).
 */
export function actingInstance(deps: { instances: Pick<InstancesService, 'ownedInstance'>; capabilitiesOf: (integration: string) => readonly Capability[] }) {
  return async (actor: Actor, instanceId: string, capability: Capability): Promise<InstanceRecord> => {
    const instance = await deps.instances.ownedInstance(actor, instanceId);
    refuseInactive(instance);
    requireCapabilities(instance.engine, deps.capabilitiesOf(instance.engine), [capability]);
    if (instance.state !== 'connected') throw new Conflict('instance_unavailable', `The instance is ${instance.state}; it acts on the network once it is connected.`);
    return instance;
  };
}
