import type { Logger } from '../logger.js';
import { createRedis, type Redis } from '../redis.js';

/** What changed, so every node drops what it cached of it. */
export type Invalidation =
  | { kind: 'apiKey'; id: string }
  /** The tenant itself changed (its plan). */
  | { kind: 'tenant'; id: string }
  /** One of the tenant's instances changed (state, activation, deletion); which one, when known. */
  | { kind: 'instances'; tenantId: string; instanceId?: string }
  | { kind: 'everything' };

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
  return {
    publish(invalidation) {
      tell(invalidation);
      redis.publisher.publish(channel, JSON.stringify(invalidation)).catch(() => {}); // the TTL bounds a lost one
    },
    subscribe: (listener) => void listeners.push(listener),
    async close() {
      subscriber.disconnect();
    },
  };
}
