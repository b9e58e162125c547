import { Conflict } from '../errors.js';
import type { DisconnectReason } from '../network/engine.port.js';
import type { Lease } from '../ownership/lease.js';
import { connectionEvent } from '../events/instance-payloads.js';
import type { InstancePatch, InstanceRecord, InstanceStore, OutboxEvent, QrRecord } from './instances.ports.js';
import { type InstanceTransition, transition } from './state-machine.js';

export type Transitions = ReturnType<typeof createTransitions>;

/**
 * The one way an instance changes state: through the state machine, conditional on the state it was
 * read in (so two nodes never both apply a move), with its connection.update event in the same
 * transaction. Used by the instance service (requests) and by engine events (the network).
 */
export function createTransitions(instances: Pick<InstanceStore, 'change'>) {
  return {
    /** Moves the instance through `step`, stores `patch` and the events; throws 409 if the move is not legal now. */
    async move(
      instance: InstanceRecord,
      step: InstanceTransition,
      patch: InstancePatch = {},
      more: {
        events?: OutboxEvent[];
        qr?: Omit<QrRecord, 'usedAt' | 'instanceId'>;
        retireQr?: boolean;
        fence?: Lease;
        ifPairingSince?: Date;
        /** The close that caused the move, carried by its connection.update. */
        reason?: DisconnectReason;
      } = {},
    ): Promise<InstanceRecord> {
      const next = transition(instance.state, step, instance.variant);
      const updated = { ...instance, ...patch, state: next };
      const events = [...(more.events ?? [])];
      if (next !== instance.state) events.unshift(connectionEvent(updated, next, more.reason ?? null));
      const changed = await instances.change(instance.id, { ...patch, state: next }, events, {
        ifState: [instance.state],
        ifPairingSince: more.ifPairingSince,
        qr: more.qr,
        retireQr: more.retireQr,
        fence: more.fence,
      });
      if (changed === null || changed === 'name_taken') {
        throw new Conflict('instance_unavailable', 'The instance changed meanwhile; try again.');
      }
      return changed;
    },
  };
}
