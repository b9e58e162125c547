import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { type ExecutionArgs, type ExecutionResult, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { costRefusal } from './cost.js';

export interface GraphQLLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxNodes: number;
  maxTokens: number;
  introspection: boolean;
}

/**
 * GraphQL Armor's rules refuse abusive documents before anything runs, on HTTP, SSE and WebSocket alike
 * (no field suggestions leak; introspection can be off). The cost and node limits need the variables,
 * so costGuard checks them as each operation starts.
 */
export function guardPlugins(limits: GraphQLLimits): Plugin[] {
  const plugins: Plugin[] = [
    EnvelopArmorPlugin({
      // The typed-error unions put every answer inside an inline fragment; fragments do not count as a level.
      maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true },
      maxAliases: { n: limits.maxAliases },
      // Replaced by costGuard, which sees the variables.
      costLimit: { enabled: false },
      maxTokens: { n: limits.maxTokens },
      maxDirectives: { n: 20 },
      blockFieldSuggestion: { enabled: true },
    }),
  ];
  if (!limits.introspection) {
    plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) });
  }
  plugins.push(costGuard(limits));
  return plugins;
}

/**
 * Refuses an operation over the cost or node limit as it starts, once its variables are known
 * (docs/graphql.md "Cost"); runs for operations answered directly too, which skip validation.
 */
export function costGuard(limits: GraphQLLimits): Plugin {
  const check = ({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution: (result: ExecutionResult) => void }) => {
    const refused = costRefusal(limits, args.schema, args.document, args.operationName, args.variableValues);
    if (refused) setResultAndStopExecution({ errors: [refused] });
  };
  return { onExecute: check, onSubscribe: check };
}
