/**
 * Plans and their limits. The table is configuration (src/config.ts builds it from the defaults here,
 * the environment and PLANS_FILE; docs/operating.md); a tenant may also carry limits of its own.
 */

/** The plans every gateway has; spec 8 fixes the instance limits of the first three. */
export const BUILT_IN_PLANS = ['starter', 'pro', 'enterprise', 'self-hosted'] as const;

/** Spec 8's instance limits; `self-hosted` has none (a company running the gateway for itself). */
export const BUILT_IN_INSTANCE_LIMITS: Record<(typeof BUILT_IN_PLANS)[number], number | null> = { starter: 1, pro: 5, enterprise: 50, 'self-hosted': null };

/** What a plan may be called: it is stored with the tenant and shown in answers. */
export const PLAN_NAME = /^[a-z][a-z0-9_-]{0,39}$/;
export const PLAN_NAME_RULE = 'a plan name: a lower-case letter, then up to 39 lower-case letters, digits, - or _';

/** A plan's name: one of the built-in plans or one the operator configured. */
export type Plan = string;

/** Every limit a plan sets. `null`: no limit (instances and daily messages only). */
export interface Limits {
  instances: number | null;
  /** Messages accepted per UTC day for the tenant's production keys and sessions (test keys have their own). */
  dailyMessages: number | null;
  requestsPerMinute: number;
  requestsPerHour: number;
  /** Requests in flight at once, per key or user. */
  burst: number;
}

export const LIMIT_NAMES = ['instances', 'dailyMessages', 'requestsPerMinute', 'requestsPerHour', 'burst'] as const satisfies ReadonlyArray<keyof Limits>;
export type LimitName = (typeof LIMIT_NAMES)[number];

/** A tenant's own limits; `null` for each one its plan decides. */
export type LimitOverrides = { [K in LimitName]: number | null };

export const NO_OVERRIDES: LimitOverrides = { instances: null, dailyMessages: null, requestsPerMinute: null, requestsPerHour: null, burst: null };

/** The limits a caller works under, and which of them are the tenant's own rather than its plan's. */
export interface EffectiveLimits extends Limits {
  readonly own: readonly LimitName[];
}

export interface Plans {
  readonly table: Readonly<Record<Plan, Readonly<Limits>>>;
  /** The plan new tenants get when none is named (PLAN_DEFAULT). */
  readonly defaultPlan: Plan;
}

export const isKnownPlan = (plans: Plans, plan: string): boolean => Object.hasOwn(plans.table, plan);

/**
 * A tenant's limits: its plan's, with its own in their place. A plan no longer configured counts as
 * the default plan, so removing a plan from the file never lifts a tenant's limits.
 */
export function limitsOf(plans: Plans, plan: Plan, overrides: LimitOverrides = NO_OVERRIDES): EffectiveLimits {
  const base = plans.table[isKnownPlan(plans, plan) ? plan : plans.defaultPlan]!;
  const own = LIMIT_NAMES.filter((name) => overrides[name] !== null);
  const limits = { ...base, own };
  for (const name of own) (limits as Record<LimitName, number | null>)[name] = overrides[name];
  return limits;
}

/** How a refusal names where a limit comes from: "the pro plan", or the tenant's own limit. */
export function limitSource(actor: { plan: Plan; limits: EffectiveLimits }, name: LimitName): string {
  return actor.limits.own.includes(name) ? "this tenant's own limit" : `the ${actor.plan} plan`;
}
