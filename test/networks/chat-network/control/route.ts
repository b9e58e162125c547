import { z } from 'zod';
import { ChatNetworkError } from '../errors.js';
import type { ChatNetwork } from '../api.js';

/** A phone as the control API takes it (digits, a leading + allowed; the network checks the rest). */
export const phone = z.string().min(1);

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  run(network: ChatNetwork, params: string[], body: unknown): Promise<{ status?: number; data: unknown }>;
}

export const parse = <T>(schema: z.ZodType<T>, body: unknown): T => {
  const result = schema.safeParse(body);
  if (!result.success) {
    const detail = result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
    throw new ChatNetworkError(400, 'validation_error', detail);
  }
  return result.data;
};

