import type { z } from 'zod';
import { Invalid } from './errors.js';

/** Parses untrusted input with a domain schema; failures become 400 invalid_request naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const messages = result.error.issues.slice(0, 5).map((issue) => {
    const field = issue.path.join('.');
    return field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
  });
  throw new Invalid(messages.join('; '));
}
