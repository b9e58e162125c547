import type { z } from 'zod';
import { Invalid, type Problem } from './errors.js';

/** How many problems one answer lists; a client fixing a form wants them all, a garbage body not hundreds. */
const MAX_PROBLEMS = 10;

/**
 * Parses untrusted input with a domain schema; failures become 400 invalid_request with every
 * problem, each with its field. Every string anywhere in the input must be storable text: no NUL
 * character and no unpaired surrogate (PostgreSQL refuses both), checked here so no field can forget it.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const value = input ?? {};
  const unstorable = unstorableStrings(value, []);
  if (unstorable.length) throw refusal(unstorable);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw refusal(
    result.error.issues.flatMap((issue) =>
      // A strict input names each field (or query parameter) it does not take.
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => ({ field: [...issue.path.map(String), key], message: 'is not one this request takes' })) : [describe(issue, value)],
    ),
  );
}

/**
 * Runs every check, and when some refuse, refuses once with all their problems: a form learns
 * everything wrong with it in one answer (a schema problem and an address rule, say).
 */
export async function allValid<T extends readonly unknown[]>(...checks: { [K in keyof T]: () => T[K] | Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(checks.map(async (check) => check()));
  const problems: Problem[] = [];
  for (const outcome of settled) {
    if (outcome.status === 'fulfilled') continue;
    if (!(outcome.reason instanceof Invalid)) throw outcome.reason;
    problems.push(...outcome.reason.problems);
  }
  if (problems.length) throw refusal(problems);
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** A field of untrusted input when it is text, for checks that run beside the schema's. */
export function textField(input: unknown, key: string): string | undefined {
  const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function refusal(problems: Problem[]): Invalid {
  const seen = new Set<string>();
  const distinct = problems.filter((problem) => {
    const key = JSON.stringify(problem);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  return Invalid.of(distinct.slice(0, MAX_PROBLEMS));
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function fieldOf(path: PropertyKey[]): string[] | null {
  return path.length ? path.map(String) : null;
}

function unstorableStrings(value: unknown, path: PropertyKey[]): Problem[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return [{ field: fieldOf(path), message: 'must not contain the NUL character (\\u0000)' }];
    if (LONE_SURROGATE.test(value)) return [{ field: fieldOf(path), message: 'must be valid Unicode text (it contains an unpaired surrogate)' }];
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

/** One issue as its field and a rule in words a client can act on. */
function describe(issue: z.core.$ZodIssue, input: unknown): Problem {
  const field = fieldOf(issue.path);
  if (issue.code === 'invalid_type') {
    const received = valueAt(input, issue.path);
    if (!field) return { field, message: `The request body must be a JSON object, not ${kindOf(received)}.` };
    if (received === undefined) return { field, message: 'is required' };
    return { field, message: `must be ${KIND_NAMES[issue.expected] ?? issue.expected}, not ${kindOf(received)}` };
  }
  if (issue.code === 'invalid_union') {
    // Each branch says why it refused; the first (the documented form) speaks for all of them.
    const first = issue.errors[0]?.[0];
    if (first) return describe({ ...first, path: [...issue.path, ...first.path] }, input);
  }
  return { field, message: issue.message };
}
