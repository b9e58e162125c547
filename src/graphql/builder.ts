import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../infra/db/generated/pothos-types.js';
import { getDatamodel } from '../infra/db/generated/pothos-types.js';
import type { GraphQLContext } from './context.js';
import { MAX_PAGE_SIZE } from './page-size.js';

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date }; JSON: { Input: unknown; Output: unknown } };
}>({
  defaultFieldNullability: false,
  plugins: [RelayPlugin, PrismaPlugin],
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  // Connections only: ids stay the plain ids REST uses (the gateway's own Node interface and node(id)
  // are in types/nodes.ts).
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    firstArgOptions: { description: `The first n items after \`after\`; at most ${MAX_PAGE_SIZE} (more is refused with invalid_request).` },
    lastArgOptions: { description: `The last n items before \`before\`; at most ${MAX_PAGE_SIZE} (more is refused with invalid_request).` },
    afterArgOptions: { description: 'A cursor from a previous page: the items after it.' },
    beforeArgOptions: { description: 'A cursor from a previous page: the items before it.' },
    pageInfoTypeOptions: { description: 'Where a page sits in its list.' },
    hasNextPageFieldOptions: { description: 'More items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'Items come before this page.' },
    startCursorFieldOptions: { description: 'The cursor of the first item of the page.' },
    endCursorFieldOptions: { description: 'The cursor of the last item of the page: pass it as `after` for the next page.' },
    cursorFieldOptions: { description: 'Where this item sits in the list, for `after` and `before`.' },
    nodeFieldOptions: { description: 'The item.' },
    edgesFieldOptions: { description: 'The items of the page with their cursors.' },
    pageInfoFieldOptions: { description: 'Where the page sits in the list.' },
    defaultConnectionTypeOptions: { description: 'A page of a list.' },
    defaultEdgeTypeOptions: { description: 'An item of a page, with its cursor.' },
  },
});

builder.queryType({ description: "Reads of the caller's tenant. Not found (or another tenant's) is null with a not_found error." });
builder.mutationType({ description: 'Changes, each `x(input: XInput!): XPayload!`; refusals are the payload\'s `userErrors`.' });
builder.subscriptionType({ description: 'Live events over graphql-ws or SSE; each starts with the current state where there is one.' });
