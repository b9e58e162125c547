import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  type GraphQLCompositeType,
  GraphQLError,
  type GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  valueFromASTUntyped,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './page-size.js';

/**
 * The cost model of an operation (docs/graphql.md "Cost"), measured once its variables are known:
 * every field resolved costs 1 each time it is resolved, a field that asks an engine costs a
 * network round trip, a connection's `edges` repeat by its page size and any other list by LIST_SIZE.
 */

/** What one round trip to an engine costs, in the units where a field resolved costs 1. */
export const ENGINE_CALL_COST = 1000;
/** How many items a list that is not a connection is taken to hold. */
export const LIST_SIZE = 10;

/** The `extensions` of a field whose resolver asks an engine (over the network) each time it runs. */
export const callsEngine = { callsEngine: true } as const;

export interface CostLimits {
  maxCost: number;
  maxNodes: number;
}

/** An argument as written: a literal, or a variable with its declared default. */
type Value = { literal: unknown } | { variable: string; default: unknown };

/** A connection's page: `first`/`last` as written (absent when not given). */
interface Page {
  first?: Value;
  last?: Value;
}

interface Condition {
  include: boolean;
  value: Value;
}

/** A field of the document, or a fragment (weight 0, once) that only carries its conditions. */
interface Field {
  weight: number;
  /** 1 when each item is an object of the response (a node the response holds). */
  object: number;
  /** Items per resolution: 1, LIST_SIZE, or a connection's page. */
  times: number | Page;
  when?: Condition[];
  children: Field[];
}

interface Plan {
  fields: Field[];
  /** The measure, when no variable changes it. */
  fixed?: Measure;
}

export interface Measure {
  cost: number;
  nodes: number;
}

// Keyed by the parsed document (yoga's parse cache hands the same object for the same text).
const plans = new WeakMap<DocumentNode, Map<string, Plan | null>>();

/** The cost and the most objects one result of the operation may hold, with these variables. */
export function measure(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: unknown): Measure | undefined {
  let byName = plans.get(document);
  if (!byName) plans.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let plan = byName.get(key);
  if (plan === undefined) byName.set(key, (plan = planOf(schema, document, operationName)));
  if (!plan) return undefined;
  if (plan.fixed) return plan.fixed;
  const vars = variables && typeof variables === 'object' ? (variables as Record<string, unknown>) : {};
  const total = { cost: 0, nodes: 0 };
  walk(plan.fields, vars, 1, total);
  return total;
}

/** The refusal of an operation over a limit: invalid_request naming the limit, or undefined when within them. */
export function costRefusal(
  limits: CostLimits,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: unknown,
): GraphQLError | undefined {
  const found = measure(schema, document, operationName, variables);
  if (!found) return undefined;
  if (found.cost > limits.maxCost) {
    return refusal(`The operation's estimated cost is ${found.cost}, over the cost limit of ${limits.maxCost}.`, 'cost', limits.maxCost, found.cost);
  }
  if (found.nodes > limits.maxNodes) {
    return refusal(`The operation's answer may hold ${found.nodes} objects, over the node limit of ${limits.maxNodes}.`, 'nodes', limits.maxNodes, found.nodes);
  }
  return undefined;
}

function refusal(message: string, limit: 'cost' | 'nodes', max: number, estimated: number) {
  // A refusal is an answer, and its stack trace was most of its cost (an attacker sends many).
  const depth = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // `http`: 400 for application/graphql-response+json, as a bad document; stripped from every answer.
    return new GraphQLError(message, { extensions: { code: 'invalid_request', limit, max, estimated, http: { status: 400, spec: true } } });
  } finally {
    Error.stackTraceLimit = depth;
  }
}

function walk(fields: Field[], vars: Record<string, unknown>, scale: number, total: Measure): void {
  for (const field of fields) {
    if (field.when && !included(field.when, vars)) continue;
    const items = scale * (typeof field.times === 'number' ? field.times : pageSize(field.times, vars));
    total.cost += scale * field.weight;
    total.nodes += items * field.object;
    if (field.children.length) walk(field.children, vars, items, total);
  }
}

const valueOf = (value: Value, vars: Record<string, unknown>) =>
  'literal' in value ? value.literal : Object.hasOwn(vars, value.variable) ? vars[value.variable] : value.default;

function included(conditions: Condition[], vars: Record<string, unknown>): boolean {
  // Anything but the boolean that leaves it out counts (coercion refuses a wrong value later).
  for (const { include, value } of conditions) if (valueOf(value, vars) === !include) return false;
  return true;
}

/** The page a connection returns; an argument that is not a number counts as the largest page (coercion refuses it later). */
function pageSize(page: Page, vars: Record<string, unknown>): number {
  const first = page.first ? sizeOf(valueOf(page.first, vars)) : undefined;
  const last = page.last ? sizeOf(valueOf(page.last, vars)) : undefined;
  if (first === undefined && last === undefined) return DEFAULT_PAGE_SIZE;
  return Math.max(first ?? 0, last ?? 0);
}

function sizeOf(value: unknown): number | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return MAX_PAGE_SIZE;
  // Beyond the maximum the connection refuses the page itself, with invalid_request naming the argument.
  return Math.min(Math.max(Math.ceil(value), 0), MAX_PAGE_SIZE);
}

function planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): Plan | null {
  let operation: OperationDefinitionNode | undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION && (operationName ? definition.name?.value === operationName : !operation)) operation = definition;
  }
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return null;
  const defaults = new Map<string, unknown>();
  for (const definition of operation.variableDefinitions ?? []) {
    defaults.set(definition.variable.name.value, definition.defaultValue ? valueFromASTUntyped(definition.defaultValue) : undefined);
  }
  let dynamic = false;
  const valueAt = (node: ValueNode): Value => {
    if (node.kind !== Kind.VARIABLE) return { literal: valueFromASTUntyped(node) };
    dynamic = true;
    return { variable: node.name.value, default: defaults.get(node.name.value) };
  };

  const fieldsOf = (parent: GraphQLCompositeType, set: SelectionSetNode, page: Page | undefined, visiting: Set<string>): Field[] => {
    const out: Field[] = [];
    for (const selection of set.selections) {
      const when = conditionsOf(selection.directives ?? [], valueAt);
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        // __typename is free; introspection is static and left to its own switch.
        if (name.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) continue;
        const definition = parent.getFields()[name];
        if (!definition) continue;
        const type = getNamedType(definition.type);
        const list = isListType(getNullableType(definition.type));
        let inner: Page | undefined;
        if (definition.args.some((arg) => arg.name === 'first' || arg.name === 'last')) {
          inner = {};
          for (const arg of selection.arguments ?? []) if (arg.name.value === 'first' || arg.name.value === 'last') inner[arg.name.value] = valueAt(arg.value);
        }
        out.push({
          weight: definition.extensions?.callsEngine ? ENGINE_CALL_COST : 1,
          object: isCompositeType(type) ? 1 : 0,
          times: list ? (page ?? LIST_SIZE) : 1,
          when,
          children: selection.selectionSet && isCompositeType(type) ? fieldsOf(type, selection.selectionSet, inner, visiting) : [],
        });
        continue;
      }
      let type: GraphQLCompositeType = parent;
      let selections: SelectionSetNode;
      let within = visiting;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        selections = selection.selectionSet;
        if (selection.typeCondition) type = schema.getType(selection.typeCondition.name.value) as GraphQLCompositeType;
      } else {
        const fragment = fragments.get(selection.name.value);
        // A spread that cycles is refused by validation; it counts nothing here.
        if (!fragment || visiting.has(fragment.name.value)) continue;
        selections = fragment.selectionSet;
        type = schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType;
        within = new Set(visiting).add(fragment.name.value);
      }
      // Every type's fragment is counted, as if the answer held them all: a bound, not a guess.
      if (type && isCompositeType(type)) out.push({ weight: 0, object: 0, times: 1, when, children: fieldsOf(type, selections, page, within) });
    }
    return out;
  };

  const plan: Plan = { fields: fieldsOf(root, operation.selectionSet, undefined, new Set()) };
  if (!dynamic) {
    const total = { cost: 0, nodes: 0 };
    walk(plan.fields, {}, 1, total);
    plan.fixed = total;
  }
  return plan;
}

function conditionsOf(directives: readonly { name: { value: string }; arguments?: readonly { name: { value: string }; value: ValueNode }[] }[], valueAt: (node: ValueNode) => Value): Condition[] | undefined {
  let conditions: Condition[] | undefined;
  for (const directive of directives) {
    const name = directive.name.value;
    const argument = directive.arguments?.find((arg) => arg.name.value === 'if');
    if ((name === 'include' || name === 'skip') && argument) (conditions ??= []).push({ include: name === 'include', value: valueAt(argument.value) });
  }
  return conditions;
}
