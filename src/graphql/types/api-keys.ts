import type { ApiKeyRecord } from '../../domain/apikeys/apikeys.ports.js';
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { builder } from '../builder.js';

export const ApiKeyType = builder.objectRef<ApiKeyRecord>('ApiKey').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    testMode: t.exposeBoolean('testMode'),
    keyPrefix: t.exposeString('keyPrefix', { description: 'The first characters of the key, safe to display.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
  }),
});

const CreatedApiKey = builder.objectRef<ApiKeyRecord & { key: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyType, resolve: (created) => created }),
    key: t.exposeString('key', { description: 'The full key. Shown only in this response, never again.' }),
  }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    testMode: t.boolean({ defaultValue: false }),
  }),
});

builder.queryField('apiKeys', (t) =>
  t.connection({
    type: ApiKeyType,
    errors: {},
    description: "The tenant's active keys (as GET /api-keys), as a cursor connection.",
    // A tenant has few keys: the service's list is paged in memory rather than read a second way.
    resolve: async (_root, args, ctx) => resolveArrayConnection({ args }, await ctx.services.apiKeys.list(await ctx.actor())),
  }),
);

builder.mutationField('createApiKey', (t) =>
  t.field({
    type: CreatedApiKey,
    errors: {},
    description: 'Needs a logged-in user (session cookie).',
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ctx.services.apiKeys.create(await ctx.actor(), input),
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    type: 'Boolean',
    errors: {},
    description: 'Needs a logged-in user (session cookie). Irreversible; the key fails at once.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await ctx.services.apiKeys.revoke(await ctx.actor(), String(id));
      return true;
    },
  }),
);
