import type { Dispatcher } from '../messages/dispatcher.js';
import { Conflict, NotSupported } from '../errors.js';
import type { EngineRegistry, InstanceSession, OwnerAction, OwnerActionResult, SessionActions } from '../network/engine.port.js';
import { SESSION_ACTIONS } from '../network/session-actions.js';
import type { InstanceRecord, InstanceStore } from '../instances/instances.ports.js';
import type { Lease } from './lease.js';
import type { Ownership, OwnerWork } from './ownership.js';
import { linkTermsOf, type QrPolicy } from '../network/link-terms.js';
import type { ProxyVault } from '../settings/settings.ports.js';

export type OwnerDuties = ReturnType<typeof createOwnerDuties>;

/** A session this node holds: its engine's integration and the lease it was opened under. */
interface Held {
  integration: string;
  lease: Lease;
  session: InstanceSession;
}

/**
 * What a node does for the instances it owns, as it takes them, loses them, or is told about them. It
 * keeps the one map of live sessions (docs/architecture.md, "Chat engines").
 */
export function createOwnerDuties(deps: {
  instances: Pick<InstanceStore, 'findById'>;
  engines: EngineRegistry;
  dispatcher: Dispatcher;
  ownership: Ownership;
  warn: (message: string, context: Record<string, unknown>) => void;
  qr: QrPolicy;
  /** Where instances' proxies are kept: read as the owner holds the instance, so a proxy moves with a takeover. */
  proxies?: Pick<ProxyVault, 'read'>;
}) {
  const { instances, engines, dispatcher, ownership } = deps;
  const sessions = new Map<string, Held>();
  /** Opens and updates of one instance run one after another: one session per instance, never two. */
  const chains = new Map<string, Promise<void>>();
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

  const isCurrent = (lease: Lease) => ownership.leaseOf(lease.instanceId)?.token === lease.token;

  function letGo(instanceId: string) {
    const held = sessions.get(instanceId);
    sessions.delete(instanceId);
    held?.session.detach();
  }

  /** Holds the instance as its row says: the session of this lease is updated, a new lease opens a new one. */
  async function hold(instance: InstanceRecord, lease: Lease) {
    const engine = engineOf(instance);
    if (!engine) return;
    const proxy = (await deps.proxies?.read(instance.id))?.url ?? null;
    const terms = linkTermsOf(instance, deps.qr, proxy);
    const held = sessions.get(instance.id);
    if (held?.lease.token === lease.token) return held.session.update(instance, terms);
    letGo(instance.id);
    const session = await engine.attach(instance, lease, terms);
    // Lost while it opened: the session lets go at once.
    if (!isCurrent(lease)) return session.detach();
    sessions.set(instance.id, { integration: engine.integration, lease, session });
    await session.update(instance, terms);
  }

  function inTurn(instanceId: string, work: () => Promise<void>): Promise<void> {
    const run = (chains.get(instanceId) ?? Promise.resolve()).then(work, work);
    const settled = run.catch(() => {});
    chains.set(instanceId, settled);
    void settled.then(() => chains.get(instanceId) === settled && chains.delete(instanceId));
    return run;
  }

  const attach = (instance: InstanceRecord, lease: Lease) => inTurn(instance.id, () => hold(instance, lease));

  /** The session the owner holds under its current lease. */
  function sessionOf(instanceId: string): Held | undefined {
    const held = sessions.get(instanceId);
    return held && isCurrent(held.lease) ? held : undefined;
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
      unoffered.delete(instanceId);
      letGo(instanceId);
    },
    /** The live session of an instance this node owns (the dispatcher sends through it). */
    sessionOf: (instanceId: string): InstanceSession | undefined => sessionOf(instanceId)?.session,
    /** An action another node (or this one) asked the owner to carry out on the network now. */
    async perform(instanceId: string, action: OwnerAction): Promise<OwnerActionResult> {
      const held = sessionOf(instanceId);
      if (!held) throw new Conflict('instance_unavailable', 'This node no longer holds the instance; retry.');
      const line = SESSION_ACTIONS[action.kind] as (typeof SESSION_ACTIONS)[OwnerAction['kind']] & { run(method: unknown, action: OwnerAction): Promise<OwnerActionResult> };
      const method = held.session[line.method] as SessionActions[keyof SessionActions] | undefined;
      if (!method) throw new NotSupported(held.integration, line.capability);
      return line.run(method.bind(held.session), action);
    },
    /** Work another node (or this one) routed to the owner. */
    async work(instanceId: string, work: OwnerWork) {
      const lease = ownership.leaseOf(instanceId);
      if (!lease) return;
      if (work === 'dispatch') return dispatcher.dispatch(instanceId);
      if (work === 'forget') {
        return inTurn(instanceId, async () => {
          const held = sessions.get(instanceId);
          sessions.delete(instanceId);
          if (held && isCurrent(held.lease)) await held.session.forget();
          else held?.session.detach();
        });
      }
      const instance = await instances.findById(instanceId);
      if (instance) await attach(instance, lease);
      dispatcher.kick(instanceId);
    },
  };
}
