import type { ChatEngine, EngineEvents, EngineRegistry } from '../domain/network/engine.port.js';
import type { Catalogue } from '../engines/catalogue.js';
import { type EngineDescriptor, type EngineRuntime, type EngineShared, type Owners, settingsOf } from '../engines/descriptor.js';
import { openStateKey } from '../engines/state/state-key.js';
import type { StateCipher } from '../engines/state/state-cipher.js';
import type { HttpRoute } from '../http/operation.js';

export interface OfferedEngines {
  /** The engines ENGINES offers, for the domain. */
  registry: EngineRegistry;
  /** Each offered engine as built, by its ENGINES name. */
  runtimes: ReadonlyMap<string, EngineRuntime>;
  /** The routes the offered engines serve. */
  routes: HttpRoute[];
  /** The integrations of the offered engines, in ENGINES order: the document shows their operations alone. */
  offered: readonly string[];
  /** Every engine of the catalogue, offered or not: the instance bodies take each one's credentials field. */
  known: readonly EngineDescriptor[];
  /** Wires every engine to the domain's handlers and to the owners of instances. */
  connect(handlers: EngineEvents, owners: Owners): void;
  stop(): void;
  /** The engine state key's cipher, opened on first use (instances' proxies are sealed with it too). */
  stateKey: () => Promise<StateCipher>;
}

/** Builds the engines ENGINES offers, in its order, from their catalogue lines. */
export async function buildEngines(catalogue: Catalogue, shared: Omit<EngineShared, 'stateKey'>): Promise<OfferedEngines> {
  const { config, db } = shared;
  // Opened once, on first use: only real engines seal state.
  let cipher: Promise<StateCipher> | undefined;
  const stateKey = () =>
    (cipher ??= openStateKey({ configured: config.ENGINE_STATE_KEY, embedded: db.kind === 'pglite', dataDir: config.DATA_DIR, statements: db.statements }));
  const runtimes = new Map<string, EngineRuntime>();
  const offered: ChatEngine[] = [];
  for (const name of config.ENGINES) {
    const descriptor = catalogue.byName(name)!;
    const runtime = await descriptor.create({ ...shared, stateKey }, settingsOf(descriptor, config));
    runtimes.set(name, runtime);
    if (descriptor.credentials && !runtime.credentials) {
      runtime.stop();
      throw new Error(`engine ${name} takes credentials (its descriptor says so) but keeps them nowhere`);
    }
    // What is served is what is documented: one route for each operation the descriptor declares.
    const declared = descriptor.http?.operations ?? [];
    const served = (runtime.routes ?? []).map((route) => route.operation);
    if (served.length !== declared.length || served.some((operation) => !declared.includes(operation))) {
      runtime.stop();
      throw new Error(`engine ${name} must serve one route for each operation its descriptor's http declares, and no other`);
    }
    // What the engine does and how it links is its catalogue line's to say.
    offered.push({
      ...runtime.engine,
      integration: descriptor.integration,
      capabilities: descriptor.capabilities,
      loginFlows: descriptor.loginFlows,
      ...(descriptor.credentials ? { credentialStore: runtime.credentials } : {}),
    });
    if (runtime.counts) shared.metrics.watchEngine(descriptor.integration, runtime.counts);
  }
  // Every engine of the catalogue is known, offered or not: its credentials field is checked in any body.
  const known = [...catalogue.descriptors()];
  const byIntegration = new Map(offered.map((engine) => [engine.integration, engine]));
  const integrations = offered.map((engine) => engine.integration);
  return {
    registry: { offered: integrations, defaultIntegration: integrations[0]!, of: (integration) => byIntegration.get(integration), known },
    runtimes,
    routes: [...runtimes.values()].flatMap((runtime) => runtime.routes ?? []),
    offered: integrations,
    known,
    stateKey,
    connect(handlers, owners) {
      for (const runtime of runtimes.values()) runtime.connect(handlers, owners);
    },
    stop() {
      for (const runtime of runtimes.values()) runtime.stop();
    },
  };
}
