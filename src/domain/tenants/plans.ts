/** The plans a tenant can be on; every other list of plans (zod, GraphQL, config) derives from this one. */
export const PLANS = ['starter', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Instances a tenant may have, by plan (spec 8). */
export const PLAN_INSTANCE_LIMITS: Record<Plan, number> = { starter: 1, pro: 5, enterprise: 50 };
