import { Redis } from 'ioredis';
import type { Logger } from './logger.js';

export type { Redis };

/**
 * One shared connection. Commands fail fast while Redis is unreachable (no offline queue), so a
 * Redis outage degrades the features that use it instead of stalling requests. A subscriber
 * connection instead keeps its SUBSCRIBEs queued until Redis is back.
 */
export function createRedis(url: string, logger: Logger, name = 'main', options: { subscriber?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    connectionName: `mgw-${name}`,
    // Commands issued in the same tick (the limiter windows, the in-flight slot, the quota) share one write.
    enableAutoPipelining: options.subscriber !== true,
    enableOfflineQueue: options.subscriber === true,
    maxRetriesPerRequest: options.subscriber ? null : 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let down = false;
  redis.on('error', (error) => {
    if (!down) logger.warn({ err: { message: error.message } }, `redis ${name}: unreachable, retrying`);
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info(`redis ${name}: connected again`);
    down = false;
  });
  return redis;
}

export async function waitUntilReady(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}
