import { baileysEngine } from './baileys/descriptor.js';
import { cloudEngine } from './cloud/descriptor.js';
import type { EngineDescriptor } from './descriptor.js';
import { sandboxEngine } from './sandbox/descriptor.js';

/**
 * The engines this gateway can offer, one line each, in the order ENGINES lists them when it names
 * them all. What a line holds is described in descriptor.ts and docs/architecture.md.
 */
const BUILT_IN: readonly EngineDescriptor[] = [sandboxEngine, baileysEngine, cloudEngine];

export interface Catalogue {
  /** Every engine known, built in first, then the ones registered. */
  descriptors(): readonly EngineDescriptor[];
  byName(name: string): EngineDescriptor | undefined;
  /** Adds an engine from outside src (an embedding, a test): known to ENGINES from then on, in this process. */
  register(descriptor: EngineDescriptor): void;
  /** The network domain of chat ids by integration, known for every engine, offered or not: events of an instance whose engine was turned off still go out. */
  jidDomainOf(integration: string): string;
}

export function createCatalogue(initial: readonly EngineDescriptor[] = BUILT_IN): Catalogue {
  const lines: EngineDescriptor[] = [];
  function add(descriptor: EngineDescriptor) {
    const clash = lines.find((line) => line.name === descriptor.name || line.integration === descriptor.integration);
    if (clash) throw new Error(`an engine named ${clash.name} (${clash.integration}) is already in the catalogue`);
    // Instances that link with credentials are given them at create, in the engine's own field.
    if (descriptor.loginFlows.includes('credentials') !== Boolean(descriptor.credentials)) {
      throw new Error(`engine ${descriptor.name}: credentials (the field and its schemas) go with the 'credentials' login flow, and only with it`);
    }
    const field = descriptor.credentials?.field;
    const taken = lines.find((line) => field !== undefined && line.credentials?.field === field);
    if (taken) throw new Error(`engine ${descriptor.name}: the credentials field ${field} is ${taken.name}'s already`);
    lines.push(descriptor);
  }
  initial.forEach(add);
  return {
    descriptors: () => lines,
    byName: (name) => lines.find((line) => line.name === name),
    register: add,
    jidDomainOf: (integration) => lines.find((line) => line.integration === integration)?.jidDomain ?? 's.whatsapp.net',
  };
}

/** The catalogue the gateway starts with (loadConfig and startGateway use it unless given another). */
export const catalogue = createCatalogue();
