import { baileysEnv } from '../../factories/chat-network.js';
import type { Mode } from '../modes.js';
import { type ChatNetwork, type ChatNetworkOptions, startChatNetwork } from '../../networks/chat-network/index.js';
import { defineWorld, type World, type WorldOptions } from '../world.js';

/** The Baileys world: a gateway running CHAT-BAILEYS (and the sandbox) against a local chat network. */
export interface BaileysWorld extends World {
  network: ChatNetwork;
}

/** A local chat network and a gateway linked to it, with a tenant, a webhook receiver and a file host (http allowed). */
export function baileysWorld(mode: Mode, options: WorldOptions & { network?: ChatNetworkOptions } = {}): BaileysWorld {
  return defineWorld<ChatNetwork, BaileysWorld>(mode, options, {
    start: () => startChatNetwork(options.network),
    env: (network) => baileysEnv(network, mode, { WEBHOOK_ALLOW_INSECURE: 'true' }),
    stop: (network) => network.close(),
    fields: (network) => ({ network }),
  });
}
