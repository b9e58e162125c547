import type { Dispatcher } from '../messages/dispatcher.js';
import { Conflict, NotSupported } from '../errors.js';
import type { ChatEngine, EngineRegistry, OwnerAction, OwnerActionResult } from '../network/engine.port.js';
import type { InstanceRecord, InstanceStore } from '../instances/instances.ports.js';
import type { Lease, Ownership, OwnerWork } from './ownership.js';
import { linkTermsOf, type QrPolicy } from '../network/link-terms.js';

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
    /** An action another node (or this one) asked the owner to carry out on the network now. */
    async perform(instanceId: string, action: OwnerAction): Promise<OwnerActionResult> {
      const lease = ownership.leaseOf(instanceId);
      const integration = attachedTo.get(instanceId);
      const engine = integration ? engines.of(integration) : undefined;
      if (!lease || !engine) throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
      const lacks = (capability: string): never => {
        throw new NotSupported(engine.integration, capability);
      };
      const act: Required<Pick<ChatEngine, 'edit' | 'deleteForEveryone' | 'markRead' | 'sendPresence' | 'checkNumbers' | 'manageGroup'>> = {
        edit: engine.edit?.bind(engine) ?? (() => lacks('edit')),
        deleteForEveryone: engine.deleteForEveryone?.bind(engine) ?? (() => lacks('delete')),
        markRead: engine.markRead?.bind(engine) ?? (() => lacks('read')),
        sendPresence: engine.sendPresence?.bind(engine) ?? (() => lacks('typing')),
        checkNumbers: engine.checkNumbers?.bind(engine) ?? (() => lacks('number_check')),
        manageGroup: engine.manageGroup?.bind(engine) ?? (() => lacks('group_admin')),
      };
      switch (action.kind) {
        case 'edit':
          await act.edit(instanceId, lease, action.target, action.text);
          return {};
        case 'delete':
          await act.deleteForEveryone(instanceId, lease, action.target);
          return {};
        case 'read':
          await act.markRead(instanceId, lease, action.targets);
          return {};
        case 'presence':
          await act.sendPresence(instanceId, lease, action.chat, action.state);
          return {};
        case 'check_numbers':
          return { numbers: await act.checkNumbers(instanceId, lease, action.phones) };
        case 'group':
          return { group: await act.manageGroup(instanceId, lease, action.group) };
      }
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
