import { z } from 'zod';
import { hashPassword } from '../auth/password.js';
import { Invalid, NotFound } from '../errors.js';
import { parseInput } from '../validation.js';
import { isKnownPlan, limitsOf, type Plans } from './plans.js';
import { changeTenantInput, createTenantInput, createUserInput, email as emailSchema, password as passwordSchema } from './tenants.input.js';
import type { Plan, TenantSettings, TenantStore, UserRecord } from './tenants.ports.js';

export type TenantsService = ReturnType<typeof createTenantsService>;

/** What the admin API shows of a tenant: its plan, the limits it works under, and which are its own. */
export function adminView(plans: Plans, tenant: TenantSettings) {
  return { id: tenant.id, name: tenant.name, plan: tenant.plan, limits: withoutOwn(limitsOf(plans, tenant.plan, tenant.overrides)), overrides: tenant.overrides };
}

const withoutOwn = ({ own: _own, ...limits }: ReturnType<typeof limitsOf>) => limits;

/** A plan the gateway has, or PLAN_DEFAULT when none is named; `field` names the input in the refusal. */
export function knownPlan(plans: Plans, plan: string | undefined, field = 'plan'): Plan {
  if (plan === undefined) return plans.defaultPlan;
  if (!isKnownPlan(plans, plan)) throw Invalid.at(field, `unknown plan "${plan}"; known: ${Object.keys(plans.table).join(', ')}`);
  return plan;
}

export function createTenantsService(deps: { tenants: TenantStore; plans: Plans }) {
  const { tenants, plans } = deps;

  async function change(tenantId: string, input: unknown) {
    const data = parseInput(changeTenantInput, input);
    const plan = data.plan === undefined ? undefined : knownPlan(plans, data.plan);
    const tenant = await tenants.change(tenantId, { plan, overrides: data.limits });
    if (!tenant) throw new NotFound('Tenant');
    return adminView(plans, tenant);
  }

  return {
    async createTenant(input: unknown) {
      const data = parseInput(createTenantInput, input);
      return tenants.createTenant({ name: data.name, plan: knownPlan(plans, data.plan) });
    },

    /** A tenant and its first user (its owner) together, or neither. */
    async createTenantWithOwner(input: unknown) {
      const data = parseInput(createTenantInput.extend({ email: emailSchema, password: passwordSchema }), input);
      const plan = knownPlan(plans, data.plan);
      const created = await tenants.createTenantWithUser(
        { name: data.name, plan },
        { email: data.email, passwordHash: await hashPassword(data.password) },
      );
      if (!created) throw Invalid.at('email', 'a user with this email exists');
      return { ...created.tenant, owner: { id: created.user.id, email: created.user.email } };
    },

    list() {
      return tenants.listTenants();
    },

    async get(tenantId: string) {
      const tenant = await tenants.findTenant(tenantId);
      if (!tenant) throw new NotFound('Tenant');
      return tenant;
    },

    async createUser(input: unknown) {
      const data = parseInput(createUserInput, input);
      if (!(await tenants.findTenant(data.tenantId))) throw new NotFound('Tenant');
      const user = await tenants.createUser({
        tenantId: data.tenantId,
        email: data.email,
        passwordHash: await hashPassword(data.password),
      });
      if (!user) throw Invalid.at('email', 'a user with this email exists');
      return user;
    },

    /** The plans table (the admin API and `plans:list`). */
    plans() {
      return { defaultPlan: plans.defaultPlan, plans: plans.table };
    },

    /** A tenant as the admin API shows it. */
    async settings(tenantId: string) {
      const tenant = await tenants.findSettings(tenantId);
      if (!tenant) throw new NotFound('Tenant');
      return adminView(plans, tenant);
    },

    /** Changes a tenant's plan or its own limits; every node applies them from the tenant's next request. */
    change,

    async setPlan(tenantId: string, plan: string) {
      parseInput(z.object({ tenantId: z.uuid() }), { tenantId });
      return change(tenantId, { plan });
    },

    /**
     * Makes sure the configured admin exists with its own tenant. Idempotent: an existing user is
     * left as it is (its password is not reset). It is only ever the first account: once the gateway
     * has a user, a new email creates nothing (`created: false`, no user) and the caller says why.
     */
    async ensureAdmin(input: { email: string; password: string; plan: Plan }): Promise<{ created: boolean; user: UserRecord | null }> {
      const email = parseInput(emailSchema, input.email);
      const password = parseInput(passwordSchema, input.password);
      const existing = await tenants.findUserByEmail(email);
      if (existing) return { created: false, user: existing };
      if (await tenants.hasUser()) return { created: false, user: null };
      const created = await tenants.createTenantWithUser(
        { name: email, plan: input.plan },
        { email, passwordHash: await hashPassword(password) },
      );
      if (created) return { created: true, user: created.user };
      // Two nodes starting at once: the other one created it.
      const user = await tenants.findUserByEmail(email);
      if (!user) throw new Error(`admin user ${email} could not be created`);
      return { created: false, user };
    },
  };
}
