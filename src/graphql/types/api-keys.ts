import type { ApiKeyRecord } from '../../domain/apikeys/apikeys.ports.js';
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { checkPageSize } from '../page-size.js';
import { entityConnection } from './connections.js';
import { MutationPayload, type Payload, payloadOf } from './errors.js';
import { NodeInterface } from './nodes.js';

export const ApiKeyType = builder.objectRef<ApiKeyRecord>('ApiKey').implement({
  description: 'A key that authenticates calls for the tenant. The key itself is shown once, when created.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    name: t.exposeString('name', { description: 'What it is for.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text; null when there is none.' }),
    testMode: t.exposeBoolean('testMode', { description: 'A test key: its messages are marked [TEST] and count against the test quota.' }),
    keyPrefix: t.exposeString('keyPrefix', { description: 'The first characters of the key, safe to display.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'When it last authenticated a call; null if never.' }),
  }),
});

const ApiKeyConnection = entityConnection(ApiKeyType, 'ApiKey', 'API keys');

builder.queryField('apiKeys', (t) =>
  t.connection(
    {
      type: ApiKeyType,
      description: "The tenant's active keys, newest first (as GET /api-keys).",
      // A tenant has few keys: the service's list is paged in memory rather than read a second way.
      resolve: async (_root, args, ctx) => {
        checkPageSize(args);
        const keys = await ctx.services.apiKeys.list(await ctx.actor());
        return { ...resolveArrayConnection({ args }, keys), totalCount: keys.length };
      },
    },
    ApiKeyConnection,
  ),
);

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  description: 'A new API key (as POST /api-keys).',
  fields: (t) => ({
    name: t.string({ required: true, description: 'What it is for; 1 to 100 characters.' }),
    description: t.string({ description: 'Free text.' }),
    testMode: t.boolean({ defaultValue: false, description: 'A test key (mgw_test_…) instead of a live one.' }),
  }),
});

const CreateApiKeyPayload = builder.objectRef<Payload<ApiKeyRecord & { key: string }>>('CreateApiKeyPayload').implement({
  description: 'The new key, shown once, or why it was not created.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyType, nullable: true, description: 'The new key; null when refused.', resolve: (p) => (p.id ? (p as ApiKeyRecord) : null) }),
    key: t.string({ nullable: true, description: 'The full key. Shown only in this answer, never again.', resolve: (p) => p.key ?? null }),
  }),
});

builder.mutationField('createApiKey', (t) =>
  t.field({
    type: CreateApiKeyPayload,
    description: 'Needs a signed-in user (session cookie); an API key cannot create keys.',
    args: { input: t.arg({ type: CreateApiKeyInput, required: true, description: 'The new key.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(() => ctx.services.apiKeys.create(actor, input));
    },
  }),
);

const RevokeApiKeyInput = builder.inputType('RevokeApiKeyInput', {
  description: 'The key to revoke.',
  fields: (t) => ({ id: t.id({ required: true, description: 'The key.' }) }),
});

const RevokeApiKeyPayload = builder.objectRef<Payload<{ revokedApiKeyId: string }>>('RevokeApiKeyPayload').implement({
  description: 'The id of the revoked key, or why it was not revoked.',
  interfaces: [MutationPayload],
  fields: (t) => ({
    revokedApiKeyId: t.id({ nullable: true, description: 'The key that no longer works (evict it from a cache); null when refused.', resolve: (p) => p.revokedApiKeyId ?? null }),
  }),
});

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    type: RevokeApiKeyPayload,
    description: 'Needs a signed-in user (session cookie). Irreversible; the key fails at once.',
    args: { input: t.arg({ type: RevokeApiKeyInput, required: true, description: 'The key.' }) },
    resolve: async (_root, { input }, ctx) => {
      const actor = await ctx.actor();
      return payloadOf(async () => {
        await ctx.services.apiKeys.revoke(actor, String(input.id));
        return { revokedApiKeyId: String(input.id) };
      });
    },
  }),
);
