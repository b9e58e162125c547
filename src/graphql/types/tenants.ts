import { PLANS } from '../../domain/tenants/plans.js';
import type { AuthService } from '../../domain/auth/auth.service.js';
import type { TenantRecord } from '../../domain/tenants/tenants.ports.js';
import { builder } from '../builder.js';
import { ApiKeyType } from './api-keys.js';

export const PlanEnum = builder.enumType('Plan', { values: PLANS });

const TenantType = builder.objectRef<TenantRecord>('Tenant').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    plan: t.expose('plan', { type: PlanEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
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
