import { z } from 'zod';

/**
 * How an engine whose instances link with credentials takes them: a body field validated by the
 * engine's own schemas. The domain never reads the value; it hands it to the engine's EngineCredentials
 * and stores `externalId` (docs/architecture.md, "Credentials").
 */
export interface CredentialsInput<Create extends z.ZodType = z.ZodType, Replace extends z.ZodType = z.ZodType> {
  /** The body field, the same in REST and GraphQL. */
  readonly field: string;
  /** What a create must give for the engine's instances. */
  readonly create: Create;
  /** What an update may give to replace some of it (a new token); the engine checks the instance again. */
  readonly replace: Replace;
  /** The engine's own id of what the credentials link (stored on the instance as `externalId`, which the network's callbacks name). */
  externalId?(credentials: z.output<Create>): string | null;
}

/** An engine the gateway knows, offered or not, and its credentials field when it links with one. */
export interface KnownEngine {
  readonly integration: string;
  readonly credentials?: CredentialsInput;
}

/**
 * Where an engine keeps its instances' credentials (sealed at rest). Each value is one its own schema
 * validated (`create` for save, `replace` for replace), handed over as it came.
 */
export interface EngineCredentials {
  save(instanceId: string, credentials: unknown): Promise<void>;
  /** Replaces the parts given; false when the instance has none stored. */
  replace(instanceId: string, parts: unknown): Promise<boolean>;
}

/** How a credentials value looks, for the message that asks for it: `{a, b, c?}` from its schema's keys. */
export function shapeOf(schema: z.ZodType): string {
  if (!(schema instanceof z.ZodObject)) return 'an object';
  const keys = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => (field.safeParse(undefined).success ? `${key}?` : key));
  return `{${keys.join(', ')}}`;
}
