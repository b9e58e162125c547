import { Invalid } from '../errors.js';
import { type CredentialsInput, type EngineCredentials, shapeOf } from '../network/credentials.js';
import type { EngineRegistry } from '../network/engine.port.js';

/** An engine's credentials a body gave, as its schema validated them, and where the engine keeps them. */
export interface GivenCredentials {
  value: unknown;
  store: EngineCredentials;
  /** The engine's own id of what they link (stored on the instance). */
  externalId: string | null;
}

/**
 * Which credentials field a create or update body may give (docs/architecture.md, "Credentials"):
 * the one of the instance's engine (required at create), never another engine's. Each message names
 * the field as the engine's descriptor does; the value itself is the engine's alone.
 */
export function createCredentialsRules(engines: EngineRegistry) {
  const lines = engines.known.flatMap((engine) => (engine.credentials ? [{ integration: engine.integration, input: engine.credentials }] : []));

  /** The credentials line of an offered engine whose instances link with them, and where it keeps them. */
  function ownOf(integration: string): { input: CredentialsInput; store: EngineCredentials } | undefined {
    const store = engines.of(integration)?.credentialStore;
    const line = lines.find((candidate) => candidate.integration === integration);
    return store && line ? { input: line.input, store } : undefined;
  }

  /** A field of another engine given anyway: refused, naming the field, and the instance's (`where`; `plain` when its engine takes none). */
  function refuseOthers(data: Readonly<Record<string, unknown>>, own: CredentialsInput | undefined, where: string, plain: string) {
    const other = lines.find((line) => line.input !== own && data[line.input.field] != null);
    if (!other) return;
    throw Invalid.at(other.input.field, own ? `is only for ${other.integration} instances (${where}, which takes ${own.field})` : `is only for an instance that connects with API credentials (${plain})`);
  }

  return {
    /** At create: the credentials the new instance links with, or none for an engine that pairs. */
    forCreate(integration: string, data: Readonly<Record<string, unknown>>): GivenCredentials | undefined {
      const own = ownOf(integration);
      if (own && data[own.input.field] == null) throw Invalid.at(own.input.field, `is required for ${integration}: ${shapeOf(own.input.create)}`);
      refuseOthers(data, own?.input, `integration ${integration}`, `integration ${integration} pairs by QR code`);
      if (!own) return undefined;
      const value = data[own.input.field];
      return { value, store: own.store, externalId: own.input.externalId?.(value) ?? null };
    },

    /** At update: the parts to replace, when the body gives the instance's engine's field. */
    forUpdate(engine: string, data: Readonly<Record<string, unknown>>): Omit<GivenCredentials, 'externalId'> | undefined {
      const own = ownOf(engine);
      refuseOthers(data, own?.input, `this one runs on ${engine}`, `this one runs on ${engine}`);
      const value = own ? data[own.input.field] : undefined;
      return own && value != null ? { value, store: own.store } : undefined;
    },
  };
}
