import type { Actor } from '../domain/actor.js';
import type { LiveFeed } from '../domain/network/live-events.js';
import type { Services } from '../domain/services.js';
import type { PrismaClient } from '../infra/db/database.js';

export interface GraphQLContext {
  services: Services;
  prisma: PrismaClient;
  live: LiveFeed;
  /** Authenticates on first use (API key or session cookie); throws Unauthorized when there is none. */
  actor(): Promise<Actor>;
  /** The session cookie of this HTTP answer (sign in and out); absent over WebSocket. */
  session?: {
    /** The client's address as the HTTP layer sees it (proxies included): login throttling. */
    clientIp: string;
    /** The token of the cookie the request came with. */
    token(): string | undefined;
    /** Sets (or with null, clears) the cookie on the answer. */
    set(token: string | null, expires: Date): void;
  };
  /** Runs work that follows the answer without holding it back; a failure is logged. */
  inBackground(work: () => Promise<unknown>): void;
}
