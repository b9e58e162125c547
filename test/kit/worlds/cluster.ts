import { afterAll, beforeAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { baileysEnv } from '../../factories/chat-network.js';
import type { ChatNetwork } from '../../networks/chat-network/index.js';
import { client } from '../../helpers/http.js';
import { type ProcessGateway, startTestGateway, type TestGateway } from '../gateway.js';
import { MODES, REDIS_URL } from '../modes.js';
import { startChildGateway } from '../process.js';

export interface TwoNodes {
  /** A node in this process (its services and store are reachable for setup). */
  a: TestGateway;
  /** A second node, the built gateway as a process of its own. */
  b: ProcessGateway;
}

/**
 * Hooks for a file about several nodes: before its tests, a gateway in this process on PostgreSQL +
 * Redis and a second one as its own process on the same database, Redis and prefix (handed to
 * `started`), both with `env`; after them, the second stopped with SIGTERM and the first closed.
 */
export function withTwoNodes(started: (nodes: TwoNodes) => void, options: { env?: Record<string, string> } = {}): void {
  const postgresRedis = MODES.find((mode) => mode.redis)!;
  let a: TestGateway | undefined;
  let b: ProcessGateway | undefined;
  beforeAll(async () => {
    a = await startTestGateway(postgresRedis, { env: options.env });
    b = await startTestGateway(postgresRedis, { process: true, reuse: { env: a.env }, env: { ...options.env, REDIS_PREFIX: a.gateway.infra.config.REDIS_PREFIX! } });
    started({ a, b });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
}

/** A gateway process of a group sharing PostgreSQL and Redis, with its node id (as /readyz names it). */
export type GatewayNode = Awaited<ReturnType<typeof startChildGateway>> & { id: string; alive: boolean };

/**
 * The environment of gateway processes running CHAT-BAILEYS against `network`, sharing one PostgreSQL
 * database and Redis (a prefix of their own), with a short node lease so takeovers come quickly, and
 * `admin` as the first account.
 */
export function baileysNodesEnv(network: ChatNetwork, databaseUrl: string, leaseMs: number, admin: Record<string, string>, extra: Record<string, string> = {}) {
  return {
    ...baileysEnv(network, MODES.find((m) => m.database === 'postgres')!),
    ENGINES: 'baileys',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: `mgwbaileys:${randomBytes(4).toString('hex')}:`,
    NODE_LEASE_MS: String(leaseMs),
    SHUTDOWN_DRAIN_MS: '0',
    ...admin,
    ...extra,
  };
}

/** Starts one gateway process with `env` and learns its node id. */
export async function startNode(env: Record<string, string>): Promise<GatewayNode> {
  const child = await startChildGateway(env);
  const ready = await client(child.url).get('/readyz');
  return { ...child, id: ready.body.data.node as string, alive: true };
}
