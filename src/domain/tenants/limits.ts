import type { Actor } from '../actor.js';
import type { InstanceStore } from '../instances/instances.ports.js';
import { type DailyQuotas, type QuotaCounter, quotaBucket } from '../messages/send-quota.js';
import type { Clock } from '../ports.js';
export interface Usage {
  used: number;
  /** Null: no limit. */
  max: number | null;
}

export interface TenantLimits {
  /** The tenant's instances against its limit (its plan's, or its own). */
  instances: Usage;
  /** Messages accepted today (UTC) against the caller's daily quota: its test key's, or its tenant's. */
  messagesToday: Usage;
  /** Requests of the caller's key or user in the current minute window; null when requests are not limited. */
  requestsThisMinute: Usage | null;
}

/** Where the caller stands against each of its limits, read without counting anything. */
export function createLimitsView(deps: {
  instances: Pick<InstanceStore, 'listByTenant'>;
  quota: QuotaCounter;
  quotas: DailyQuotas;
  clock: Clock;
  requestUsage: (actor: Actor) => Promise<Usage | null>;
}) {
  return {
    async of(actor: Actor): Promise<TenantLimits> {
      const { bucket, limit } = quotaBucket(actor, deps.quotas, deps.clock.now());
      const [instances, messages, requests] = await Promise.all([
        deps.instances.listByTenant(actor.tenantId),
        deps.quota.used(bucket),
        deps.requestUsage(actor),
      ]);
      return {
        instances: { used: instances.length, max: actor.limits.instances },
        messagesToday: { used: limit === null ? messages : Math.min(limit, messages), max: limit },
        requestsThisMinute: requests,
      };
    },
  };
}
