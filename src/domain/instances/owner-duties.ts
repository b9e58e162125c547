import type { Dispatcher } from '../messages/dispatcher.js';
import type { EngineRegistry } from './engine.port.js';
import type { InstanceRecord, InstanceStore } from './instances.ports.js';
import type { Lease, Ownership, OwnerWork } from './ownership.js';
import { linkTermsOf, type QrPolicy } from './link-terms.js';

export type OwnerDuties = ReturnType<typeof createOwnerDuties>;

/** What a node does for the instances it owns, as it takes them, loses them, or is told about them. */
export function createOwnerDuties(deps: {
  instances: Pick<InstanceStore, 'findById'>;
  engines: EngineRegistry;
  dispatcher: Dispatcher;
  ownership: Ownership;
  warn: (message: string, context: Record<string, unknown>) => void;
  qr: QrPolicy;
}) {
  const { instances, engines, dispatcher, ownership } = deps;
  /** Which engine each owned instance was attached to (an instance's engine never changes). */
  const attachedTo = new Map<string, string>();
  const unoffered = new Set<string>();

  function engineOf(instance: InstanceRecord) {
    const engine = engines.of(instance.engine);
    if (!engine && !unoffered.has(instance.id)) {
      unoffered.add(instance.id);
      // A choice of the operator's (ENGINES), not a failure: one line per instance, no stack.
      deps.warn(`instance ${instance.id} waits: its integration ${instance.engine} is not in ENGINES; it stays as it is until it is offered again`, {
        instanceId: instance.id,
        integration: instance.engine,
      });
    }
    return engine;
  }

  async function attach(instance: InstanceRecord, lease: Lease) {
    const engine = engineOf(instance);
    if (!engine) return;
    attachedTo.set(instance.id, instance.engine);
    await engine.attach(instance, lease, linkTermsOf(instance, deps.qr));
  }

  return {
    /** Taken over (or placed here): hold the connection, then send what waits, checking what the network already has. */
    async acquired(lease: Lease) {
      // Before anything can dispatch under the new lease: the earlier owner may have handed messages it never marked.
      dispatcher.distrust(lease.instanceId);
      const instance = await instances.findById(lease.instanceId);
      if (!instance) return;
      await attach(instance, lease);
      dispatcher.kick(lease.instanceId);
    },
    lost(instanceId: string) {
      const integration = attachedTo.get(instanceId);
      attachedTo.delete(instanceId);
      unoffered.delete(instanceId);
      if (integration) engines.of(integration)?.detach(instanceId);
    },
    /** Work another node (or this one) routed to the owner. */
    async work(instanceId: string, work: OwnerWork) {
      const lease = ownership.leaseOf(instanceId);
      if (!lease) return;
      if (work === 'dispatch') return dispatcher.dispatch(instanceId);
      if (work === 'forget') {
        const integration = attachedTo.get(instanceId);
        return integration ? engines.of(integration)?.forget(instanceId) : undefined;
      }
      const instance = await instances.findById(instanceId);
      if (instance) await attach(instance, lease);
      dispatcher.kick(instanceId);
    },
  };
}
