import { z } from 'zod';

export const createApiKeyInput = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  description: z.string().max(500, 'must be at most 500 characters').nullish(),
  testMode: z.boolean({ error: 'must be true or false' }).default(false),
});

export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;
