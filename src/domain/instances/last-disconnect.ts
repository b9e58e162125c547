import { DISCONNECT_REASONS, type DisconnectReason } from '../network/engine.port.js';
import type { InstanceRecord } from './instances.ports.js';

export interface LastDisconnect {
  reason: DisconnectReason;
  at: Date;
}

/** A reason as stored or carried by an event; anything else is none. */
export const asDisconnectReason = (value: string | null): DisconnectReason | null =>
  (DISCONNECT_REASONS as readonly (string | null)[]).includes(value) ? (value as DisconnectReason) : null;

/** Why the instance's connection last closed, and when; null if it never did. */
export function lastDisconnectOf(instance: Pick<InstanceRecord, 'lastDisconnectReason' | 'lastDisconnectAt'>): LastDisconnect | null {
  const reason = asDisconnectReason(instance.lastDisconnectReason);
  if (!reason || !instance.lastDisconnectAt) return null;
  return { reason, at: instance.lastDisconnectAt };
}
