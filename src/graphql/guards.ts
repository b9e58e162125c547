import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export interface GraphQLLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxTokens: number;
  introspection: boolean;
}

/**
 * Validation rules that refuse abusive documents before anything runs (GraphQL Armor): depth,
 * aliases, estimated cost, tokens and directives; field suggestions are not leaked. Introspection can be
 * turned off. They run for every transport: HTTP, SSE and WebSocket.
 */
export function guardPlugins(limits: GraphQLLimits): Plugin[] {
  const plugins: Plugin[] = [
    EnvelopArmorPlugin({
      // The typed-error unions put every answer inside an inline fragment; fragments do not count as a level.
      maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true },
      maxAliases: { n: limits.maxAliases },
      // Cost grows with depth and with literal `first`/`last` page sizes.
      costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true, flattenFragments: true },
      maxTokens: { n: limits.maxTokens },
      maxDirectives: { n: 20 },
      blockFieldSuggestion: { enabled: true },
    }),
  ];
  if (!limits.introspection) {
    plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) });
  }
  return plugins;
}
