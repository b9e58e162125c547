import type { DisconnectReason } from '../network/engine.port.js';
import type { InstanceRecord } from '../instances/instances.ports.js';
import { type InstanceState, statusIn } from '../instances/state-machine.js';
import { digits } from '../phone.js';
import type { CallData, CatalogueEvent } from './catalogue.js';

/** connection.update of a state change, in the instance's own status words, with the close that caused it (else null). */
export function connectionEvent(instance: Pick<InstanceRecord, 'variant' | 'phone'>, state: InstanceState, reason: DisconnectReason | null = null): CatalogueEvent<'connection.update'> {
  // An unknown phone is null, in webhooks as in REST answers.
  return {
    event: 'connection.update',
    data: { status: statusIn(instance.variant, state), phoneNumber: instance.phone ? digits(instance.phone) : null, reason },
  };
}

/** qr.update: a new code to scan, as an image, until it expires. */
export function qrEvent(qrCode: string, expiresAt: Date, attemptId: string): CatalogueEvent<'qr.update'> {
  return { event: 'qr.update', data: { qrCode, expiresAt: expiresAt.toISOString(), attemptId } };
}

/** call: one step of a call to the instance's number. */
export function callEvent(call: CallData): CatalogueEvent<'call'> {
  return { event: 'call', data: call };
}

/** instance.restricted: the network holds the instance's sending until `until` (null: lifted). */
export function restrictedEvent(reason: string, until: Date | null): CatalogueEvent<'instance.restricted'> {
  return { event: 'instance.restricted', data: { reason, until: until?.toISOString() ?? null } };
}
