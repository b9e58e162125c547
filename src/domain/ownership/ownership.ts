import type { OwnerAction, OwnerActionResult } from '../network/engine.port.js';
import type { Lease } from './lease.js';

/**
 * What reaches an instance's owner: dispatch its queue, look at the instance again (its row
 * changed), or log it out of the network before it is deleted.
 */
export type OwnerWork = 'dispatch' | 'sync' | 'forget';

/** Which instances this node owns, and how work reaches the owner of any instance. */
export interface Ownership {
  /** This node's current lease on the instance, if it owns it. */
  leaseOf(instanceId: string): Lease | undefined;
  /** The leases this node holds now. */
  owned(): Lease[];
  /** Tells the instance's owner (this node or another); an instance without one is placed soon. */
  notify(instanceId: string, work: OwnerWork): void;
  /**
   * Has the instance's owner (this node or another) carry out an action on the network now, and
   * answers what it answered; Conflict `instance_unavailable` when no node holds the instance or its
   * owner does not answer in time.
   */
  perform(instanceId: string, action: OwnerAction): Promise<OwnerActionResult>;
}

/**
 * Whether an instance needs an owning node: a pairing to run, a paired connection to hold (or bring
 * back), or a requested logout to carry out. The lease statements say the same in SQL (WANTS_OWNER).
 */
export function wantsOwner(instance: { state: string; phone: string | null; pairingSince: Date | null; logoutPending: boolean }): boolean {
  return (
    instance.pairingSince !== null ||
    instance.logoutPending ||
    ['connecting', 'connected'].includes(instance.state) ||
    (instance.state === 'disconnected' && instance.phone !== null)
  );
}
