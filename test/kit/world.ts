import { afterAll, beforeAll } from 'vitest';
import { createTenant, type TestTenant } from '../factories/tenants.js';
import { type FileServer, startFileServer } from '../helpers/file-server.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';
import { type Client, client } from '../helpers/http.js';
import type { Mode } from './modes.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { sharedGateway } from './shared-gateway.js';
import { borrow } from './suite.js';

type Plan = 'starter' | 'pro' | 'enterprise';
export type Files = Parameters<typeof startFileServer>[0];

/**
 * What every world gives a suite: a gateway of its own on the world's network, a client, a tenant
 * (more when asked), a webhook receiver and a file host. Read the fields inside tests and hooks:
 * they are filled in before the first test runs.
 */
export interface World {
  gw: TestGateway;
  api: Client;
  /** The first of `tenants`. */
  tenant: TestTenant;
  /** The tenants asked for, in order (one `enterprise` tenant by default). */
  tenants: TestTenant[];
  receiver: Receiver;
  /** Serves `files` (404 for anything else). */
  files: FileServer;
}

export interface WorldOptions extends Omit<TestGatewayOptions, 'reuse'> {
  tenants?: Plan[];
  files?: Files;
  /** Wraps the client before anything uses it (a suite that records every answer). */
  wrapClient?: (api: Client) => Client;
}

/**
 * Registers the hooks that start a world before the suite's tests and stop it after: the network
 * first, then the gateway. A `shareable` world with no settings of its own borrows the shared gateway.
 */
export function defineWorld<Net, W extends World>(
  mode: Mode,
  options: WorldOptions,
  network: {
    start: () => Promise<Net>;
    /** Its gateway's environment is contained in the shared gateways' (SHARED_ENV). */
    shareable?: boolean;
    /** The gateway's environment for this network (before the suite's own `env`). */
    env: (net: Net) => Record<string, string>;
    /** After the gateway is up (the network learns where to call it). */
    connect?: (net: Net, gw: TestGateway) => void | Promise<void>;
    stop: (net: Net) => Promise<void>;
    /** The world's own fields for the network. */
    fields: (net: Net) => Omit<W, keyof World>;
  },
): W {
  const world = {} as W;
  let net: Net | undefined;
  beforeAll(async () => {
    net = await network.start();
    Object.assign(world, network.fields(net));
    const shared = network.shareable && !options.env && !options.infra && !options.expectedErrors;
    world.gw = shared ? borrow(await sharedGateway(mode)) : await startTestGateway(mode, { ...options, env: { ...network.env(net), ...options.env } });
    await network.connect?.(net, world.gw);
    world.api = options.wrapClient ? options.wrapClient(client(world.gw.url)) : client(world.gw.url);
    world.tenants = [];
    for (const plan of options.tenants ?? ['enterprise']) world.tenants.push(await createTenant(world.gw.gateway, world.api, plan));
    world.tenant = world.tenants[0]!;
    world.receiver = await startReceiver();
    world.files = await startFileServer(options.files ?? {});
  }, 90_000);
  afterAll(async () => {
    await world.files?.close();
    await world.receiver?.close();
    await world.gw?.close();
    if (net !== undefined) await network.stop(net);
  });
  return world;
}
