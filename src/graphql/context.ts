import type { Actor } from '../domain/actor.js';
import type { LiveFeed } from '../domain/instances/live-events.js';
import type { Services } from '../domain/services.js';
import type { PrismaClient } from '../infra/db/database.js';

export interface GraphQLContext {
  services: Services;
  prisma: PrismaClient;
  live: LiveFeed;
  /** Authenticates on first use (API key or session cookie); throws Unauthorized when there is none. */
  actor(): Promise<Actor>;
  /** Runs work that follows the answer without holding it back; a failure is logged. */
  inBackground(work: () => Promise<unknown>): void;
}
