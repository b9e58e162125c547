import { z } from 'zod';

import { PLANS } from './plans.js';

export { PLANS };

/** Emails are compared case-insensitively: stored and looked up lower-cased. */
export const email = z
  .email('must be an email address')
  .max(254)
  .transform((v) => v.toLowerCase());

export const password = z.string().min(8, 'must be at least 8 characters').max(1024);

export const createTenantInput = z.object({
  name: z.string().trim().min(1).max(100),
  plan: z.enum(PLANS).default('pro'),
});

export const createUserInput = z.object({
  tenantId: z.uuid(),
  email,
  password,
});
