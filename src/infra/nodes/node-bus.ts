import { randomUUID } from 'node:crypto';
import type { OwnerAction, OwnerActionResult } from '../../domain/network/engine.port.js';
import { Conflict, DomainError, type ErrorCode } from '../../domain/errors.js';
import type { OwnerWork } from '../../domain/ownership/ownership.js';
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
  /** Has another node, the instance's owner, carry out an action now; its answer, or its DomainError. */
  ask(node: string, instanceId: string, action: OwnerAction): Promise<OwnerActionResult>;
  close(): Promise<void>;
}

export interface NodeBusHandlers {
  work(instanceId: string, work: OwnerWork): void;
  place(): void;
  perform(instanceId: string, action: OwnerAction): Promise<OwnerActionResult>;
}

/** How long an asking node waits for the owner's answer: longer than the engines' own network timeouts. */
const ASK_TIMEOUT_MS = 30_000;

interface Ask {
  ask: { id: string; from: string; instanceId: string; action: OwnerAction };
}
interface Answer {
  answer: { id: string; result?: OwnerActionResult; error?: { code: ErrorCode; message: string } };
}

/** An owner's failure as it crosses to the asking node: a DomainError keeps its code, anything else is the network's. */
function errorOf(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof DomainError) return { code: error.code, message: error.message };
  return { code: 'network_error', message: `The network failed the action: ${(error as Error).message}` };
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
      ask: (_node, instanceId, action) => handlers.perform(instanceId, action),
      close: async () => {},
    };
  }
  const own = `${redis.prefix}node:${node}`;
  const everyone = `${redis.prefix}nodes`;
  const subscriber = createRedis(redis.url, redis.logger, 'nodes', { subscriber: true });
  subscriber.subscribe(own, everyone).catch((error: unknown) => redis.logger.warn({ err: { message: (error as Error).message } }, 'node bus: subscribe failed'));
  const asked = new Map<string, { resolve: (result: OwnerActionResult) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  const answer = (to: string, reply: Answer['answer']) =>
    redis.publisher.publish(`${redis.prefix}node:${to}`, JSON.stringify({ answer: reply } satisfies Answer)).catch(() => {}); // the asker times out
  subscriber.on('message', (channel: string, text: string) => {
    if (channel === everyone) return handlers.place();
    let parsed: Partial<WorkBatch> & Partial<Ask> & Partial<Answer>;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // not ours
    }
    if (parsed.ask) {
      const { id, from, instanceId, action } = parsed.ask;
      handlers.perform(instanceId, action).then(
        (result) => answer(from, { id, result }),
        (error: unknown) => answer(from, { id, error: errorOf(error) }),
      );
      return;
    }
    if (parsed.answer) {
      const waiting = asked.get(parsed.answer.id);
      if (!waiting) return;
      asked.delete(parsed.answer.id);
      clearTimeout(waiting.timer);
      const { result, error } = parsed.answer;
      return error ? waiting.reject(new DomainError(error.code, error.message)) : waiting.resolve(result ?? {});
    }
    for (const work of WORK) for (const id of parsed[work] ?? []) handlers.work(id, work);
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
    ask(target, instanceId, action) {
      const id = randomUUID();
      return new Promise<OwnerActionResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          asked.delete(id);
          reject(new Conflict('instance_unavailable', "The node holding the instance did not answer in time; retry."));
        }, ASK_TIMEOUT_MS);
        asked.set(id, { resolve, reject, timer });
        const ask: Ask = { ask: { id, from: node, instanceId, action } };
        redis.publisher.publish(`${redis.prefix}node:${target}`, JSON.stringify(ask)).catch((error: unknown) => {
          asked.delete(id);
          clearTimeout(timer);
          reject(new Conflict('instance_unavailable', `The node holding the instance could not be reached (${(error as Error).message}); retry.`));
        });
      });
    },
    async close() {
      for (const waiting of asked.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new Conflict('instance_unavailable', 'This node is shutting down; retry.'));
      }
      asked.clear();
      flush();
      subscriber.disconnect();
    },
  };
}
