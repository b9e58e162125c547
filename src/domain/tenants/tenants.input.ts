import { z } from 'zod';
import { LIMIT_NAMES, type LimitName, PLAN_NAME, PLAN_NAME_RULE } from './plans.js';

/** Emails are compared case-insensitively: stored and looked up lower-cased. */
export const email = z
  .email('must be an email address')
  .max(254)
  .transform((v) => v.toLowerCase());

export const password = z.string().min(8, 'must be at least 8 characters').max(1024);

/** A plan's name as input; whether the gateway has that plan is the service's check (the table is configuration). */
export const planName = z.string().regex(PLAN_NAME, PLAN_NAME_RULE);

export const createTenantInput = z.object({
  name: z.string().trim().min(1).max(100),
  /** PLAN_DEFAULT when not given. */
  plan: planName.optional(),
});

export const createUserInput = z.object({
  tenantId: z.uuid(),
  email,
  password,
});

const count = z.number().int().min(0, 'must be 0 or more').max(1_000_000_000);
const rate = z.number().int().min(1, 'must be 1 or more').max(10_000_000);
const own = (schema: z.ZodNumber) => schema.nullable().optional();

/** A tenant's own limits in a change: a number sets one, null gives it back to the plan, absent leaves it. */
export const limitOverridesInput = z.strictObject({
  instances: own(count),
  dailyMessages: own(count),
  requestsPerMinute: own(rate),
  requestsPerHour: own(rate),
  burst: own(rate),
} satisfies Record<LimitName, unknown>);

/** The admin API's change of a tenant: its plan, its own limits, or both. */
export const changeTenantInput = z
  .strictObject({ plan: planName.optional(), limits: limitOverridesInput.optional() })
  .refine((input) => input.plan !== undefined || (input.limits !== undefined && LIMIT_NAMES.some((name) => input.limits![name] !== undefined)), {
    message: 'name a plan or at least one limit',
  });
