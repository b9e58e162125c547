import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Capability, LoginFlow } from '../domain/network/capabilities.js';
import type { ChatEngine, EngineEvents } from '../domain/network/engine.port.js';
import type { CredentialsInput, EngineCredentials } from '../domain/network/credentials.js';
import type { HttpRoute, HttpSurface } from '../http/operation.js';
import type { Database } from '../infra/db/database.js';
import type { Logger } from '../infra/logger.js';
import type { Metrics } from '../infra/metrics.js';
import type { OutboundHttp } from '../infra/outbound-http.js';
import type { LimiterFactory } from '../infra/rate-limit/limiter-factory.js';
import type { StateCipher } from './state/state-cipher.js';

/** What every engine may build on: the gateway's plumbing, shared by all of them. */
export interface EngineShared {
  config: Config;
  db: Database;
  /** Outbound HTTP with the gateway's address guard (media fetches). */
  outbound: OutboundHttp;
  limiters: LimiterFactory;
  metrics: Metrics;
  logger: Logger;
  /** ENGINE_STATE_KEY, checked against the database on first use (a real engine seals its state with it). */
  stateKey(): Promise<StateCipher>;
}

/** Tells an instance's owner (this node or another) to look at the instance again. */
export interface Owners {
  tell(instanceId: string): void;
}

/** An engine built for this gateway: the port the domain drives, and what the gateway mounts and stops. */
export interface EngineRuntime {
  engine: ChatEngine;
  /** Wires the engine to the domain's handlers and to the owners of instances (once the domain exists). */
  connect(handlers: EngineEvents, owners: Owners): void;
  /** Its HTTP routes, one for each operation of its descriptor's `http` (docs/architecture.md, "Adding an engine"). */
  routes?: HttpRoute[];
  /** Where its instances' credentials are kept: required when its descriptor has `credentials`. */
  credentials?: EngineCredentials;
  /** Connections of this node, for GET /metrics. */
  counts?(): { connected: number; connecting: number; waiting: number };
  stop(): void;
}

/**
 * How an engine's instances take credentials, when they link with them (docs/architecture.md,
 * "Credentials"): the body field and the schemas that validate it (the REST bodies, the OpenAPI
 * document and the GraphQL inputs are built from them), and the names of its GraphQL input types.
 */
export interface EngineCredentialsLine<Create extends z.ZodType = z.ZodType, Replace extends z.ZodType = z.ZodType> extends CredentialsInput<Create, Replace> {
  /** Each schema must be an object of strings, numbers or booleans to be a GraphQL input type. */
  readonly graphql: { readonly create: string; readonly replace: string };
}

/**
 * One line of the catalogue: everything the gateway knows of an engine before it is built. A new
 * engine is a folder under src/engines with one of these (docs/architecture.md, "Adding an engine").
 */
export interface EngineDescriptor<Settings extends z.ZodObject = z.ZodObject> {
  /** Its name in ENGINES, e.g. `sandbox`. */
  readonly name: string;
  /** The integration id its instances show, e.g. CHAT-SANDBOX. */
  readonly integration: string;
  /** The network domain of its chat ids (`<digits>@<domain>`, the session envelope's remoteJid). */
  readonly jidDomain: string;
  /** Its part of the environment, validated with the rest of the configuration (offered or not). */
  readonly settings: Settings;
  /** Checks of its settings that apply once ENGINES offers it: problems as `VARIABLE: why`. */
  check?(settings: z.output<Settings>): string[];
  /** The login flows its instances offer. */
  readonly loginFlows: readonly LoginFlow[];
  /** Present exactly when `loginFlows` has `credentials`: the field its instances take them in, and its schemas. */
  readonly credentials?: EngineCredentialsLine;
  /** What it really does (docs/architecture.md, "Capabilities"); each action past text and media is an optional method of its InstanceSession. */
  readonly capabilities: readonly Capability[];
  /** Its HTTP surface: the operations its runtime's routes serve, and the tags the OpenAPI document groups them under. */
  readonly http?: HttpSurface;
  /** Builds the engine (only when ENGINES offers it). */
  create(shared: EngineShared, settings: z.output<Settings>): Promise<EngineRuntime>;
}

/** A descriptor's settings, read from the validated configuration (which holds every descriptor's part). */
export function settingsOf<Settings extends z.ZodObject>(descriptor: EngineDescriptor<Settings>, config: Config): z.output<Settings> {
  const all = config as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(descriptor.settings.shape).filter((key) => key in all).map((key) => [key, all[key]])) as z.output<Settings>;
}

/** Declares a descriptor with its settings' type kept (the catalogue holds them side by side). */
export const defineEngine = <Settings extends z.ZodObject>(descriptor: EngineDescriptor<Settings>) => descriptor as unknown as EngineDescriptor;
