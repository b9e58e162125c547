import { randomBytes } from 'node:crypto';
import type { Mode } from '../modes.js';
import { type CloudApi, startCloudApi } from '../../networks/cloud-api/index.js';
import { defineWorld, type World, type WorldOptions } from '../world.js';

/** The Cloud world: a gateway running CHAT-CLOUD (and the sandbox) against the local business API. */
export interface CloudWorld extends World {
  cloud: CloudApi;
  /** The token the API's webhook subscription is verified with. */
  verifyToken: string;
}

/**
 * The local business API and a gateway using it, the API's webhooks pointed at the gateway, with a
 * tenant, a webhook receiver and a file host (http allowed).
 */
export function cloudWorld(mode: Mode, options: WorldOptions & { cloud?: Parameters<typeof startCloudApi>[0]; verifyToken?: string } = {}): CloudWorld {
  const verifyToken = options.verifyToken ?? `verify-${randomBytes(8).toString('hex')}`;
  return defineWorld<CloudApi, CloudWorld>(mode, options, {
    start: () => startCloudApi(options.cloud),
    env: (cloud) => ({
      ENGINES: 'sandbox,cloud',
      CLOUD_API_URL: cloud.url,
      CLOUD_VERIFY_TOKEN: verifyToken,
      WEBHOOK_ALLOW_INSECURE: 'true',
      ...(mode.database === 'postgres' ? { ENGINE_STATE_KEY: randomBytes(32).toString('base64') } : {}),
    }),
    connect: (cloud, gw) => cloud.setWebhook(`${gw.url}/webhooks/cloud`, verifyToken),
    stop: (cloud) => cloud.close(),
    fields: (cloud) => ({ cloud, verifyToken }),
  });
}
