import type { InstanceVariant } from './state-machine.js';

export const V1_EVENTS = ['messages.upsert', 'messages.update', 'messages.delete', 'connection.update', 'qr.update'] as const;
export const SESSION_EVENTS = [
  'messages.upsert',
  'messages.update',
  'messages.delete',
  'connection.update',
  'groups.update',
  'groups.upsert',
  'contacts.update',
  'presence.update',
] as const;

export function eventsOf(variant: InstanceVariant): readonly string[] {
  return variant === 'v1' ? V1_EVENTS : SESSION_EVENTS;
}

export const digits = (phone: string | null) => (phone ?? '').replace(/\D/g, '');
