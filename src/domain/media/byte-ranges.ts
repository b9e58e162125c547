import { RangeNotSatisfiable } from '../errors.js';
import type { ByteRange } from './media-store.port.js';

/** A single range of a Range header: `a-b`, `a-` (to the end) or `-n` (the last n bytes). */
export type RangeSpec = { start: number; end: number | null } | { suffix: number };

const ONE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * The one range a `Range` header asks for, or null to serve the whole file (docs/media.md,
 * "Ranges"): no header, several ranges, another unit or a malformed one are all answered whole,
 * as RFC 9110 §14.2 lets a server do.
 */
export function parseRange(header: string | undefined): RangeSpec | null {
  const match = header ? ONE_RANGE.exec(header.replace(/\s+/g, '')) : null;
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') return Number(last) > 0 ? { suffix: Number(last) } : null;
  const start = Number(first);
  const end = last === '' ? null : Number(last);
  return end !== null && end < start ? null : { start, end };
}

/** The inclusive bytes of a file of `size` the range names; throws RangeNotSatisfiable past its end. */
export function resolveRange(spec: RangeSpec, size: number): ByteRange {
  if ('suffix' in spec) {
    if (size === 0) throw new RangeNotSatisfiable(size);
    return { start: Math.max(0, size - spec.suffix), end: size - 1 };
  }
  if (spec.start >= size) throw new RangeNotSatisfiable(size);
  return { start: spec.start, end: Math.min(spec.end ?? size - 1, size - 1) };
}
