import { afterAll, beforeAll } from 'vitest';
import { type ChildGateway, startChildGateway } from '../process.js';
import { FUNCTIONAL_LIMITS, startTestGateway, type TestGateway } from '../gateway.js';
import { MODES, REDIS_URL } from '../modes.js';

export interface TwoNodes {
  /** A node in this process (its services and store are reachable for setup). */
  a: TestGateway;
  /** A second node, the built gateway as a process of its own. */
  b: ChildGateway;
}

/**
 * Hooks for a file about several nodes: before its tests, a gateway in this process on PostgreSQL +
 * Redis and a second one as its own process on the same database, Redis and prefix (handed to
 * `started`), both with `env`; after them, the second stopped with SIGTERM and the first closed.
 */
export function withTwoNodes(started: (nodes: TwoNodes) => void, options: { env?: Record<string, string> } = {}): void {
  const postgresRedis = MODES.find((mode) => mode.redis)!;
  let a: TestGateway | undefined;
  let b: ChildGateway | undefined;
  beforeAll(async () => {
    a = await startTestGateway(postgresRedis, { env: options.env });
    b = await startChildGateway({ ...a.env, ...FUNCTIONAL_LIMITS, ...options.env, REDIS_URL, REDIS_PREFIX: a.gateway.infra.config.REDIS_PREFIX });
    started({ a, b });
  });
  afterAll(async () => {
    await b?.kill('SIGTERM');
    await a?.close();
  });
}
