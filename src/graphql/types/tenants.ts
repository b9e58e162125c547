import type { AuthService } from '../../domain/auth/auth.service.js';
import type { TenantRecord } from '../../domain/tenants/tenants.ports.js';
import { InvalidApiKey, Unauthorized } from '../../domain/errors.js';
import { builder } from '../builder.js';
import { ApiKeyType } from './api-keys.js';
import type { TenantLimits, Usage } from '../../domain/tenants/limits.js';

const UsageType = builder.objectRef<Usage>('Usage').implement({
  description: 'How much of a limit is used.',
  fields: (t) => ({
    used: t.exposeInt('used', { description: 'Used so far.' }),
    max: t.exposeInt('max', { nullable: true, description: 'The limit; null when there is none.' }),
  }),
});

const TenantLimitsType = builder.objectRef<TenantLimits>('TenantLimits').implement({
  description: 'Where the caller stands against its limits now.',
  fields: (t) => ({
    instances: t.field({ type: UsageType, description: "The tenant's instances against its limit (its plan's, or its own).", resolve: (l) => l.instances }),
    messagesToday: t.field({
      type: UsageType,
      description: "Messages accepted today (UTC) against the caller's daily quota: its test key's, or its tenant's.",
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
  description: 'An account: its instances, keys and messages belong to it alone.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its id.' }),
    name: t.exposeString('name', { description: 'Its name.' }),
    plan: t.exposeString('plan', {
      description: "Its plan: a name from the gateway's plans table (starter, pro, enterprise, self-hosted, or one the operator configured). It sets the instance limit, the daily message quota and the request rate.",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    limits: t.field({
      type: TenantLimitsType,
      description: "The caller's limits and how much of each is used (read without counting this request twice).",
      resolve: async (_tenant, _args, ctx) => ctx.services.limits.of(await ctx.actor()),
    }),
  }),
});

export const UserType = builder.objectRef<{ id: string; email: string }>('User').implement({
  description: "A person who signs in to the tenant's dashboard.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its id.' }),
    email: t.exposeString('email', { description: 'The address it signs in with.' }),
  }),
});

const MeType = builder.objectRef<Awaited<ReturnType<AuthService['whoAmI']>>>('Me').implement({
  description: 'Who is calling.',
  fields: (t) => ({
    tenant: t.field({ type: TenantType, description: 'The tenant it acts for.', resolve: (me) => me.tenant }),
    user: t.field({ type: UserType, nullable: true, description: 'The signed-in user (session cookie); null for an API key.', resolve: (me) => me.user }),
    apiKey: t.field({ type: ApiKeyType, nullable: true, description: 'The API key it authenticated with; null for a session.', resolve: (me) => me.apiKey }),
  }),
});

builder.queryField('me', (t) =>
  t.field({
    description: 'The caller: its tenant, and the user or API key it authenticated as.',
    type: MeType,
    resolve: async (_root, _args, ctx) => ctx.services.auth.whoAmI(await ctx.actor()),
  }),
);

builder.queryField('viewer', (t) =>
  t.field({
    description:
      'The caller as `me`, or null when the request carries no valid credentials (never an error): how a sign-in page learns whether someone is signed in without a 401.',
    type: MeType,
    nullable: true,
    resolve: async (_root, _args, ctx) => {
      let actor;
      try {
        actor = await ctx.actor();
      } catch (error) {
        if (error instanceof Unauthorized || error instanceof InvalidApiKey) return null;
        throw error;
      }
      return ctx.services.auth.whoAmI(actor);
    },
  }),
);
