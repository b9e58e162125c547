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
      maxDepth: { n: limits.maxDepth, ignoreIntrospection: true },
      maxAliases: { n: limits.maxAliases },
      costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true },
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
