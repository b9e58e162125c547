import type { z } from 'zod';
import { Invalid } from './errors.js';

/** How many problems one answer lists; a client fixing a form wants them all, a garbage body not hundreds. */
const MAX_PROBLEMS = 10;

/**
 * Parses untrusted input with a domain schema; failures become 400 invalid_request with one
 * "field: rule" per problem. Every string anywhere in the input must be storable text: no NUL
 * character and no unpaired surrogate (PostgreSQL refuses both), checked here so no field can forget it.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const value = input ?? {};
  const unstorable = unstorableStrings(value, []);
  if (unstorable.length) throw new Invalid(unique(unstorable).slice(0, MAX_PROBLEMS).join('; '));
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describe(issue, value));
  throw new Invalid(unique(problems).slice(0, MAX_PROBLEMS).join('; '));
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function fieldName(path: PropertyKey[]): string {
  return path.map(String).join('.');
}

function unstorableStrings(value: unknown, path: PropertyKey[]): string[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return [`${fieldName(path) || 'value'}: must not contain the NUL character (\\u0000)`];
    if (LONE_SURROGATE.test(value)) return [`${fieldName(path) || 'value'}: must be valid Unicode text (it contains an unpaired surrogate)`];
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableStrings(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => unstorableStrings(item, [...path, key]));
  }
  return [];
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const KIND_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return KIND_NAMES[typeof value] ?? typeof value;
}

/** One issue as "field: rule", in words a client can act on. */
function describe(issue: z.core.$ZodIssue, input: unknown): string {
  const field = fieldName(issue.path);
  if (issue.code === 'invalid_type') {
    const received = valueAt(input, issue.path);
    if (field === '') return `The request body must be a JSON object, not ${kindOf(received)}.`;
    if (received === undefined) return `${field}: is required`;
    return `${field}: must be ${KIND_NAMES[issue.expected] ?? issue.expected}, not ${kindOf(received)}`;
  }
  if (issue.code === 'invalid_union') {
    // Each branch says why it refused; the first (the documented form) speaks for all of them.
    const first = issue.errors[0]?.[0];
    if (first) return describe({ ...first, path: [...issue.path, ...first.path] }, input);
  }
  return field ? `${field}: ${issue.message}` : issue.message;
}
