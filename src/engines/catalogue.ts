import type { ChatEngine, EngineRegistry } from '../domain/instances/engine.port.js';

/** The engines ENGINES can name, and the integration id each one's instances show. */
export const INTEGRATIONS = { sandbox: 'CHAT-SANDBOX', baileys: 'CHAT-BAILEYS', cloud: 'CHAT-CLOUD' } as const;
export type EngineName = keyof typeof INTEGRATIONS;
export const ENGINE_NAMES = Object.keys(INTEGRATIONS) as EngineName[];

/** The network domain of chat ids (`<digits>@<domain>`, the session envelope's remoteJid), by integration. */
const JID_DOMAINS: Record<string, string> = {
  [INTEGRATIONS.sandbox]: 'sandbox.chat',
  [INTEGRATIONS.baileys]: 's.whatsapp.net',
  [INTEGRATIONS.cloud]: 's.whatsapp.net',
};

/** Known for every integration, offered or not: events of an instance whose engine was turned off still go out. */
export const jidDomainOf = (integration: string) => JID_DOMAINS[integration] ?? 's.whatsapp.net';

/** The offered engines, in ENGINES order (the first is the default for new instances). */
export function engineRegistry(engines: ChatEngine[]): EngineRegistry {
  const byIntegration = new Map(engines.map((engine) => [engine.integration, engine]));
  const offered = engines.map((engine) => engine.integration);
  return { offered, defaultIntegration: offered[0]!, of: (integration) => byIntegration.get(integration) };
}
