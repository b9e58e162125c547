import { GraphQLError, Kind, valueFromASTUntyped } from 'graphql';
import { builder } from '../builder.js';

builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp in UTC with milliseconds.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    return parseDate(ast.value);
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value (a template\'s components, passed to the network as given).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

function parseDate(value: unknown): Date {
  const date = new Date(String(value));
  if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
  return date;
}
