import { hash } from 'node:crypto';
import { z } from 'zod';
import { parseInput } from '../validation.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const idempotencyKey = z
  .string()
  .min(1, 'Idempotency-Key must not be empty')
  .max(255, 'Idempotency-Key must be at most 255 characters')
  .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be printable ASCII without spaces');

export function parseIdempotencyKey(value: string | undefined): string | undefined {
  return value === undefined ? undefined : parseInput(idempotencyKey, value);
}

/** Same logical request ⇔ same fingerprint: key order in the body does not matter. */
export function fingerprint(value: unknown): string {
  return hash('sha256', canonicalJson(value), 'hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
