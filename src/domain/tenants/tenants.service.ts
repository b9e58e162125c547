import { z } from 'zod';
import { hashPassword } from '../auth/password.js';
import { Invalid, NotFound } from '../errors.js';
import { parseInput } from '../validation.js';
import { createTenantInput, createUserInput, email as emailSchema, password as passwordSchema, PLANS } from './tenants.input.js';
import type { Plan, TenantStore, UserRecord } from './tenants.ports.js';

export type TenantsService = ReturnType<typeof createTenantsService>;

export function createTenantsService(deps: { tenants: TenantStore }) {
  const { tenants } = deps;

  return {
    async createTenant(input: unknown) {
      return tenants.createTenant(parseInput(createTenantInput, input));
    },

    /** A tenant and its first user (its owner) together, or neither. */
    async createTenantWithOwner(input: unknown) {
      const data = parseInput(createTenantInput.extend({ email: emailSchema, password: passwordSchema }), input);
      const created = await tenants.createTenantWithUser(
        { name: data.name, plan: data.plan },
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

    async setPlan(tenantId: string, plan: string) {
      const parsed = parseInput(z.object({ tenantId: z.uuid(), plan: z.enum(PLANS) }), { tenantId, plan });
      const tenant = await tenants.setPlan(parsed.tenantId, parsed.plan);
      if (!tenant) throw new NotFound('Tenant');
      return tenant;
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
