import { z } from 'zod';
import { INBOUND_MEDIA_TYPES, type InboundMediaType } from './media-source.js';

/** Which media an instance keeps (docs/media.md, "Policy"): every kind, none, or the kinds listed; files up to maxBytes. */
export interface MediaPolicy {
  keep: 'all' | 'none' | InboundMediaType[];
  maxBytes: number;
}

export const MEDIA_POLICY_MAX_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_MEDIA_POLICY: MediaPolicy = { keep: 'all', maxBytes: 64 * 1024 * 1024 };

const maxBytesRule = `must be a whole number of bytes from 1 to ${MEDIA_POLICY_MAX_BYTES}`;

/** An instance body's `media` (and the gateway's default, MEDIA_KEEP / MEDIA_MAX_BYTES): kept on the instance; null there means the default. */
export const mediaPolicyInput = z.strictObject({
  keep: z.union([
    z.enum(['all', 'none'], { message: `must be all, none, or a list of kinds (${INBOUND_MEDIA_TYPES.join(', ')})` }),
    z
      .array(z.enum(INBOUND_MEDIA_TYPES, { message: `must be one of ${INBOUND_MEDIA_TYPES.join(', ')}` }))
      .max(INBOUND_MEDIA_TYPES.length)
      .refine((kinds) => new Set(kinds).size === kinds.length, 'names a kind twice')
      .meta({ uniqueItems: true }),
  ], { message: `must be all, none, or a list of kinds (${INBOUND_MEDIA_TYPES.join(', ')})` }),
  maxBytes: z.number({ message: maxBytesRule }).int(maxBytesRule).min(1, maxBytesRule).max(MEDIA_POLICY_MAX_BYTES, maxBytesRule).optional(),
});

/** The instance's policy when it has a valid one, else `fallback` (the gateway's default). */
export function mediaPolicyOf(instance: { mediaPolicy: unknown }, fallback: MediaPolicy = DEFAULT_MEDIA_POLICY): MediaPolicy {
  const parsed = mediaPolicyInput.safeParse(instance.mediaPolicy);
  return parsed.success ? { keep: parsed.data.keep, maxBytes: parsed.data.maxBytes ?? fallback.maxBytes } : fallback;
}

/** Whether the policy keeps a file of this kind (its size is checked while it is stored). */
export function keepsKind(policy: MediaPolicy, kind: string): boolean {
  if (policy.keep === 'all') return true;
  if (policy.keep === 'none') return false;
  return (policy.keep as string[]).includes(kind);
}
