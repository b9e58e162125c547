import type { OwnerWork } from '../../domain/instances/ownership.js';
import type { Logger } from '../logger.js';
import { createRedis, type Redis } from '../redis.js';

/** Work for one node, gathered over a turn of the event loop: one message per node per turn. */
type WorkBatch = Record<OwnerWork, string[]>;
const WORK: OwnerWork[] = ['dispatch', 'sync', 'forget'];

export interface NodeBus {
  /** Work for the owner of these instances (another node). */
  send(node: string, instanceId: string, work: OwnerWork): void;
  /** Asks every node to run its placement now (instances without an owner, leases handed back). */
  placeAll(): void;
  close(): Promise<void>;
}

export interface NodeBusHandlers {
  work(instanceId: string, work: OwnerWork): void;
  place(): void;
}

/**
 * How nodes reach each other: Redis pub/sub when Redis is configured (one channel per node, one for
 * everyone), in-process otherwise (one node). A lost message only delays: owners also poll.
 */
export function createNodeBus(
  node: string,
  handlers: NodeBusHandlers,
  redis: { url: string; publisher: Redis; prefix: string; logger: Logger } | undefined,
): NodeBus {
  if (!redis) {
    return {
      send: (_node, instanceId, work) => handlers.work(instanceId, work),
      placeAll: () => handlers.place(),
      close: async () => {},
    };
  }
  const own = `${redis.prefix}node:${node}`;
  const everyone = `${redis.prefix}nodes`;
  const subscriber = createRedis(redis.url, redis.logger, 'nodes', { subscriber: true });
  subscriber.subscribe(own, everyone).catch((error: unknown) => redis.logger.warn({ err: { message: (error as Error).message } }, 'node bus: subscribe failed'));
  subscriber.on('message', (channel: string, text: string) => {
    if (channel === everyone) return handlers.place();
    try {
      const batch = JSON.parse(text) as Partial<WorkBatch>;
      for (const work of WORK) for (const id of batch[work] ?? []) handlers.work(id, work);
    } catch {
      // not ours
    }
  });
  // After a reconnect, work sent meanwhile may be lost: look at everything again.
  let readyOnce = false;
  subscriber.on('ready', () => {
    if (readyOnce) handlers.place();
    readyOnce = true;
  });

  const pending = new Map<string, WorkBatch>();
  const flush = () => {
    for (const [target, batch] of pending) {
      redis.publisher.publish(`${redis.prefix}node:${target}`, JSON.stringify(batch)).catch(() => {}); // owners poll
    }
    pending.clear();
  };
  return {
    send(target, instanceId, work) {
      if (pending.size === 0) setImmediate(flush);
      let batch = pending.get(target);
      if (!batch) pending.set(target, (batch = { dispatch: [], sync: [], forget: [] }));
      batch[work].push(instanceId);
    },
    placeAll() {
      handlers.place();
      redis.publisher.publish(everyone, 'place').catch(() => {});
    },
    async close() {
      flush();
      subscriber.disconnect();
    },
  };
}
