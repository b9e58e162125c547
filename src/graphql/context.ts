import type { Actor } from '../domain/actor.js';
import type { Services } from '../domain/services.js';
import type { PrismaClient } from '../infra/db/database.js';

export interface GraphQLContext {
  services: Services;
  prisma: PrismaClient;
  /** Authenticates on first use (API key or session cookie); throws Unauthorized when there is none. */
  actor(): Promise<Actor>;
}
