import type { Logger } from '../logger.js';
import { createRedis, type Redis } from '../redis.js';

/** What changed, so every node drops what it cached of it. */
export type Invalidation =
  | { kind: 'apiKey'; id: string }
  /** The tenant itself changed (its plan). */
  | { kind: 'tenant'; id: string }
  /** One of the tenant's instances changed (state, activation, deletion); which one, when known. */
  | { kind: 'instances'; tenantId: string; instanceId?: string }
  /** A session of the user ended (sign-out, password change): its open streams are checked again. */
  | { kind: 'sessions'; userId: string }
  | { kind: 'everything' };

/** How long closing waits for invalidations still on their way to Redis. */
const CLOSE_WAIT_MS = 2000;

export interface InvalidationBus {
  /** Tells this node at once, and every other node through Redis when it is configured. */
  publish(invalidation: Invalidation): void;
  subscribe(listener: (invalidation: Invalidation) => void): void;
  close(): Promise<void>;
}

/**
 * Cache invalidation across nodes: Redis pub/sub when Redis is configured, in-process otherwise. A
 * lost message (Redis down) only leaves an entry until its TTL ends; after a reconnect every cache
 * is dropped, since messages may have been missed meanwhile.
 */
export function createInvalidationBus(redis: { url: string; publisher: Redis; prefix: string; logger: Logger } | undefined): InvalidationBus {
  const listeners: Array<(invalidation: Invalidation) => void> = [];
  const tell = (invalidation: Invalidation) => {
    for (const listener of listeners) listener(invalidation);
  };
  if (!redis) {
    return { publish: tell, subscribe: (listener) => void listeners.push(listener), close: async () => {} };
  }
  const channel = `${redis.prefix}invalidate`;
  const subscriber = createRedis(redis.url, redis.logger, 'invalidation', { subscriber: true });
  let subscribedOnce = false;
  subscriber.on('ready', () => {
    if (subscribedOnce) for (const listener of listeners) listener({ kind: 'everything' });
    subscribedOnce = true;
  });
  subscriber.subscribe(channel).catch((error: unknown) => redis.logger.warn({ err: { message: (error as Error).message } }, 'cache invalidation: subscribe failed'));
  subscriber.on('message', (_channel: string, text: string) => {
    try {
      tell(JSON.parse(text) as Invalidation);
    } catch {
      // not ours
    }
  });
  // A one-shot process (the CLI revoking a key, resetting a password) closes right after publishing.
  const sending = new Set<Promise<unknown>>();
  return {
    publish(invalidation) {
      tell(invalidation);
      const sent: Promise<unknown> = redis.publisher
        .publish(channel, JSON.stringify(invalidation))
        .catch(() => {}) // the TTL (and the streams' periodic check) bounds a lost one
        .finally(() => sending.delete(sent));
      sending.add(sent);
    },
    subscribe: (listener) => void listeners.push(listener),
    async close() {
      await Promise.race([Promise.all(sending), new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
      subscriber.disconnect();
    },
  };
}
