import type { Router, RouterMiddleware } from '@koa/router';
import type { Actor } from '../../domain/actor.js';
import type { InstanceRecord, NamedStanding } from '../../domain/instances/instances.ports.js';
import type { Services } from '../../domain/services.js';
import type { AppState } from '../../http/context.js';
import { jsonBody, mediaJsonBody } from '../../http/json-body.js';
import { whenDone } from '../../http/when-done.js';
import { evolutionError, type FieldNames, toEvolutionError } from './errors.js';

/** Counts a request against the caller's rate limits (the gateway's limiter, given by the app). */
export type Admit = (actor: Actor, setHeader: (name: string, value: string) => void) => Promise<{ leave: () => void }>;

export interface EvolutionDeps {
  services: Services;
  admit: Admit;
}

/** One request to an Evolution operation, authenticated, its instance found by name. */
export interface Call {
  actor: Actor;
  /** The JSON body (an empty object when there was none). */
  body: Record<string, unknown>;
  query: Record<string, string | string[] | undefined>;
  /** The instance named in the path, the caller's own; absent on operations without one, and on `light` ones. */
  instance: InstanceRecord;
  /** The named instance's standing, as a send checks it (`light` operations: from memory, no database read). */
  standing: NamedStanding;
  /** Where an error names a field of the domain's input, the field of the Evolution body it came from. */
  names: FieldNames;
  /** The Idempotency-Key header, which sends honour as the gateway's own do (docs/rest.md). */
  idempotencyKey: string | undefined;
}

export interface Answer {
  status?: number;
  body: unknown;
}

export interface OperationOptions {
  /** The path takes `:instanceName` (most of Evolution's do). */
  named?: boolean;
  /** Bodies that may carry a file as base64 get the larger limit. */
  media?: boolean;
  /** The domain's field names as the Evolution body writes them, for 400 messages. */
  names?: FieldNames;
  /** Needs only the named instance's standing (sends): read as the gateway's own sends read it. */
  light?: boolean;
}

type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Registers one Evolution operation: errors in Evolution's shape, the `apikey` header checked
 * (docs/evolution.md, "Authentication"), the rate limits counted, the body read, the instance found
 * by its name among the caller's own (another tenant's is not found, as Evolution answers).
 */
export function operation(router: Router<AppState>, deps: EvolutionDeps, method: Method, path: string, options: OperationOptions, handle: (call: Call) => Promise<Answer>) {
  const names = options.names ?? {};
  const answerErrors: RouterMiddleware<AppState> = async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const answer = toEvolutionError(error, names);
      if (answer.status >= 500) ctx.state.log?.error({ err: error }, 'request failed');
      ctx.status = answer.status;
      for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
      ctx.body = answer.body;
    }
  };
  const authenticate: RouterMiddleware<AppState> = async (ctx, next) => {
    const key = ctx.get('apikey').trim();
    if (!key) {
      const refusal = evolutionError(401, ['Unauthorized: send the API key in the apikey header.']);
      ctx.status = refusal.status;
      ctx.body = refusal.body;
      return;
    }
    const actor = await deps.services.auth.authenticateApiKey(key);
    ctx.state.actor = actor;
    const admission = await deps.admit(actor, (name, value) => ctx.set(name, value));
    whenDone(ctx.res, admission.leave);
    await next();
  };
  const answer: RouterMiddleware<AppState> = async (ctx) => {
    const actor = ctx.state.actor!;
    const instanceName = ctx.params.instanceName;
    const { instances } = deps.services;
    const standing = options.named && options.light ? await instances.namedStanding(actor, instanceName!) : (undefined as unknown as NamedStanding);
    const instance = options.named && !options.light ? await instances.named(actor, instanceName!) : (undefined as unknown as InstanceRecord);
    const raw = ctx.state.body;
    const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const result = await handle({ actor, body, query: ctx.query, instance, standing, names, idempotencyKey: ctx.get('Idempotency-Key') || undefined });
    ctx.status = result.status ?? 200;
    // Evolution answers some finds with a JSON null, which Koa would turn into 204 No Content.
    if (result.body === null) ctx.type = 'application/json';
    ctx.body = result.body === null ? 'null' : result.body;
  };
  const full = options.named ? `${path}/:instanceName` : path;
  router[method](full, answerErrors, authenticate, options.media ? mediaJsonBody : jsonBody, answer);
}
