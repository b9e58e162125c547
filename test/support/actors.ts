import type { EffectiveLimits } from '../../src/domain/tenants/plans.js';

/** The pro plan's limits as a gateway without configuration has them, for actors made by hand. */
export const PRO_LIMITS: EffectiveLimits = { instances: 5, dailyMessages: 10_000, requestsPerMinute: 60, requestsPerHour: 1000, burst: 10, own: [] };
