import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../infra/db/generated/pothos-types.js';
import { getDatamodel } from '../infra/db/generated/pothos-types.js';
import type { GraphQLContext } from './context.js';
import { DomainError } from '../domain/errors.js';

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date } };
}>({
  defaultFieldNullability: false,
  plugins: [ErrorsPlugin, RelayPlugin, PrismaPlugin],
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  errors: { defaultTypes: [DomainError] },
  // Connections only: ids stay the plain ids REST uses, and there is no global node lookup to guard.
  relay: { clientMutationId: 'omit', cursorType: 'String', nodeQueryOptions: false, nodesQueryOptions: false },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
