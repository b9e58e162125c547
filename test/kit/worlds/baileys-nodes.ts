import { randomBytes } from 'node:crypto';
import { baileysEnv } from '../../factories/chat-network.js';
import type { ChatNetwork } from '../../networks/chat-network/index.js';
import { startChildGateway } from '../process.js';
import { client } from '../../helpers/http.js';
import { MODES, REDIS_URL } from '../modes.js';

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
