import type { InstanceRecord } from './instances.ports.js';

/** The network holding the instance's sending (docs/settings.md, "Restrictions"). */
export interface Restriction {
  reason: string;
  until: Date;
}

/** The restriction in force at `now`; null when there is none, or its end passed (it is being lifted). */
export function restrictionOf(instance: Pick<InstanceRecord, 'restrictedUntil' | 'restrictedReason'>, now = new Date()): Restriction | null {
  if (!instance.restrictedUntil || instance.restrictedUntil <= now) return null;
  return { reason: instance.restrictedReason ?? 'restricted', until: instance.restrictedUntil };
}
