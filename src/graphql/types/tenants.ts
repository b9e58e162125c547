import { PLANS } from '../../domain/tenants/plans.js';
import type { AuthService } from '../../domain/auth/auth.service.js';
import type { TenantRecord } from '../../domain/tenants/tenants.ports.js';
import { builder } from '../builder.js';
import { ApiKeyType } from './api-keys.js';
import type { TenantLimits, Usage } from '../../domain/tenants/limits.js';

export const PlanEnum = builder.enumType('Plan', { values: PLANS });

const UsageType = builder.objectRef<Usage>('Usage').implement({
  description: 'How much of a limit is used.',
  fields: (t) => ({
    used: t.exposeInt('used', { description: 'Used so far.' }),
    max: t.exposeInt('max', { description: 'The limit.' }),
  }),
});

const TenantLimitsType = builder.objectRef<TenantLimits>('TenantLimits').implement({
  description: 'Where the caller stands against its limits now.',
  fields: (t) => ({
    instances: t.field({ type: UsageType, description: "The tenant's instances against its plan.", resolve: (l) => l.instances }),
    messagesToday: t.field({
      type: UsageType,
      description: "Messages accepted today (UTC) against the caller's daily quota: its test key's, or its plan's.",
      resolve: (l) => l.messagesToday,
    }),
    requestsThisMinute: t.field({
      type: UsageType,
      nullable: true,
      description: "Requests of the caller's key or user in the current minute window, this one included; null when requests are not limited.",
      resolve: (l) => l.requestsThisMinute,
    }),
  }),
});

const TenantType = builder.objectRef<TenantRecord>('Tenant').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    plan: t.expose('plan', { type: PlanEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    limits: t.field({
      type: TenantLimitsType,
      description: "The caller's limits and how much of each is used (read without counting this request twice).",
      resolve: async (_tenant, _args, ctx) => ctx.services.limits.of(await ctx.actor()),
    }),
  }),
});

const UserRef = builder.objectRef<{ id: string; email: string }>('User').implement({
  fields: (t) => ({ id: t.exposeID('id'), email: t.exposeString('email') }),
});

builder.queryField('me', (t) =>
  t.field({
    description: 'The caller: its tenant, and the user or API key it authenticated as.',
    errors: {},
    type: builder
      .objectRef<Awaited<ReturnType<AuthService['whoAmI']>>>('Me')
      .implement({
        fields: (t) => ({
          tenant: t.field({ type: TenantType, resolve: (me) => me.tenant }),
          user: t.field({ type: UserRef, nullable: true, resolve: (me) => me.user }),
          apiKey: t.field({ type: ApiKeyType, nullable: true, resolve: (me) => me.apiKey }),
        }),
      }),
    resolve: async (_root, _args, ctx) => ctx.services.auth.whoAmI(await ctx.actor()),
  }),
);
