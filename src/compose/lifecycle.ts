import type { LiveNode } from '../infra/nodes/lease-statements.js';
import type { Maintenance } from '../infra/maintenance.js';
import type { Retention } from '../infra/db/retention.js';
import type { Delivery } from './delivery.js';
import type { OfferedEngines } from './engines.js';
import type { Storage } from './storage.js';

/** How long /readyz waits for each dependency's answer. */
const READY_CHECK_MS = 800;

function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export type Readiness = {
  database: 'ok';
  redis: 'ok' | 'not configured';
  node: string;
  nodes: LiveNode[];
  brokers?: Partial<Record<'amqp' | 'nats', 'ok' | 'down'>>;
};

/** Every dependency the gateway needs to serve (throws naming the one that is not), and the live nodes. */
export function readinessCheck(storage: Storage, delivery: Delivery): () => Promise<Readiness> {
  const { db, redis } = storage;
  const { placement, eventStreams } = delivery;
  return async () => {
    // A load balancer needs an answer within its own timeout, even from a stalled dependency.
    try {
      await withinMs(db.ping(), READY_CHECK_MS);
    } catch {
      throw new Error('database unreachable');
    }
    // A broker down delays events (they wait in the outbox); it does not make the gateway unready.
    const nodes = { node: placement.node, nodes: await withinMs(placement.liveNodes(), READY_CHECK_MS), ...eventStreams.readiness() };
    if (!redis) return { database: 'ok', redis: 'not configured', ...nodes };
    try {
      await withinMs(redis.ping(), READY_CHECK_MS);
    } catch {
      throw new Error('redis unreachable');
    }
    return { database: 'ok', redis: 'ok', ...nodes };
  };
}

/**
 * The shutdown order: the sweeps and senders first (nothing new goes out), then the engines, then
 * the shared connections, the database last (everything before may still write to it).
 */
export function shutdownSequence(parts: { storage: Storage; delivery: Delivery; engines: OfferedEngines; maintenance: Maintenance; retention: Retention }) {
  const { storage, delivery, engines, maintenance, retention } = parts;
  return async () => {
    await maintenance.stop();
    await retention.stop();
    await delivery.deliveries.stop();
    await delivery.eventStreams.stop();
    engines.stop();
    await storage.outbound.close();
    await delivery.liveFeed.close();
    await storage.invalidation.close();
    storage.redis?.disconnect();
    await storage.mediaStore?.close();
    await storage.db.close();
  };
}
