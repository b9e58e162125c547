import type { Dispatcher } from '../messages/dispatcher.js';
import type { ChatEngine } from './engine.port.js';
import type { InstanceStore } from './instances.ports.js';
import { type Lease, type Ownership, type OwnerWork, wantsOwner } from './ownership.js';

export type OwnerDuties = ReturnType<typeof createOwnerDuties>;

/** What a node does for the instances it owns, as it takes them, loses them, or is told about them. */
export function createOwnerDuties(deps: {
  instances: Pick<InstanceStore, 'findById'>;
  engine: ChatEngine;
  dispatcher: Dispatcher;
  ownership: Ownership;
}) {
  const { instances, engine, dispatcher, ownership } = deps;
  return {
    /** Taken over (or placed here): hold the connection, then send what waits, checking what the network already has. */
    async acquired(lease: Lease) {
      // Before anything can dispatch under the new lease: the earlier owner may have handed messages it never marked.
      dispatcher.distrust(lease.instanceId);
      const instance = await instances.findById(lease.instanceId);
      if (!instance) return;
      await engine.attach(instance, lease);
      dispatcher.kick(lease.instanceId);
    },
    lost(instanceId: string) {
      engine.detach(instanceId);
    },
    /** Work another node (or this one) routed to the owner. */
    async work(instanceId: string, work: OwnerWork) {
      const lease = ownership.leaseOf(instanceId);
      if (!lease) return;
      if (work === 'dispatch') return dispatcher.dispatch(instanceId);
      const instance = await instances.findById(instanceId);
      if (instance && wantsOwner(instance)) await engine.attach(instance, lease);
      dispatcher.kick(instanceId);
    },
  };
}
