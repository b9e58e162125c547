import { type Capability, capabilitiesOf } from './capabilities.js';
import type { EngineRegistry } from './engine.port.js';

/** An engine this deployment offers, and what it can carry. */
export interface Integration {
  integration: string;
  capabilities: Capability[];
}

/** The offered engines, the default first (ENGINES), each with its capabilities in the catalogue's order. */
export function integrationsOf(engines: EngineRegistry): Integration[] {
  return engines.offered.flatMap((integration) => {
    const engine = engines.of(integration);
    return engine ? [{ integration, capabilities: [...capabilitiesOf(engine)] }] : [];
  });
}
