import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { BUILT_IN_INSTANCE_LIMITS, BUILT_IN_PLANS, type Limits, PLAN_NAME, PLAN_NAME_RULE, type Plans } from './domain/tenants/plans.js';

const count = z.number().int().min(0).max(1_000_000_000);
const rate = z.number().int().min(1).max(10_000_000);

/** One plan in PLANS_FILE; a built-in plan names only what it changes. */
const planEntry = z.strictObject({
  instances: count.nullable().optional(),
  dailyMessages: count.nullable().optional(),
  requestsPerMinute: rate.optional(),
  requestsPerHour: rate.optional(),
  burst: rate.optional(),
});

const plansFile = z.strictObject({
  plans: z.record(z.string(), planEntry).superRefine((plans, ctx) => {
    for (const name of Object.keys(plans)) if (!PLAN_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: PLAN_NAME_RULE });
  }),
});

/** What the environment sets before the file: the request limits every plan starts from, and the built-in plans' daily messages. */
export interface PlanDefaults {
  requests: Pick<Limits, 'requestsPerMinute' | 'requestsPerHour' | 'burst'>;
  dailyMessages: Record<(typeof BUILT_IN_PLANS)[number], number | null>;
}

/**
 * The plans table: the built-in plans as the environment sets them, then PLANS_FILE's plans over them
 * (docs/operating.md). Problems name the variable and the field, as the rest of the configuration's do.
 */
export function buildPlans(defaults: PlanDefaults, file: string | undefined, defaultPlan: string): { plans: Plans; problems: string[] } {
  const table: Record<string, Limits> = {};
  for (const name of BUILT_IN_PLANS) {
    table[name] = { instances: BUILT_IN_INSTANCE_LIMITS[name], dailyMessages: defaults.dailyMessages[name], ...defaults.requests };
  }
  const problems: string[] = [];
  if (file !== undefined) {
    const read = readPlansFile(file);
    if ('problems' in read) problems.push(...read.problems.map((problem) => `PLANS_FILE (${file}): ${problem}`));
    else {
      for (const [name, entry] of Object.entries(read.plans)) {
        const base = table[name];
        if (!base && (entry.instances === undefined || entry.dailyMessages === undefined)) {
          problems.push(`PLANS_FILE (${file}): plans.${name}: a new plan names instances and dailyMessages (a number, or null for no limit)`);
          continue;
        }
        const defined = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
        table[name] = { ...(base ?? { instances: null, dailyMessages: null, ...defaults.requests }), ...defined };
      }
    }
  }
  if (!Object.hasOwn(table, defaultPlan)) problems.push(`PLAN_DEFAULT: unknown plan "${defaultPlan}"; known: ${Object.keys(table).join(', ')}`);
  return { plans: Object.freeze({ table: Object.freeze(table), defaultPlan }), problems };
}

function readPlansFile(file: string): { plans: z.output<typeof plansFile>['plans'] } | { problems: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { problems: [`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [`is not JSON: ${(error as Error).message}`] };
  }
  const parsed = plansFile.safeParse(json);
  if (parsed.success) return { plans: parsed.data.plans };
  return { problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`) };
}
