import type { Mode } from '../modes.js';
import { defineWorld, type World, type WorldOptions } from '../world.js';

/** The sandbox world: the gateway's built-in network, whose phones a test drives through `/sandbox/…`. */
export type SandboxWorld = World;

/** A gateway on the sandbox network, with a tenant, a webhook receiver and a file host (http allowed). */
export function sandboxWorld(mode: Mode, options: WorldOptions = {}): SandboxWorld {
  return defineWorld<null, SandboxWorld>(mode, options, {
    start: async () => null,
    shareable: true,
    // Media and webhooks are served from this machine over http: insecure URLs are allowed here.
    env: () => ({ WEBHOOK_ALLOW_INSECURE: 'true' }),
    stop: async () => {},
    fields: () => ({}),
  });
}
