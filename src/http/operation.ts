import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { AppState } from './context.js';

/** Who may call an operation: any one of these. */
export type Credential = 'bearerKey' | 'xApiKey' | 'sessionCookie' | 'metricsToken' | 'adminToken';

/** One REST operation as the OpenAPI document describes it, from the schemas its route validates with. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As the router writes it: `/v1/chat/instances/:instanceId`. */
  path: string;
  /** One of the document's tags: the gateway's own, or one an engine brings. */
  tag: string;
  summary: string;
  auth: Credential[];
  body?: z.ZodType;
  query?: z.ZodObject;
  /** Takes an Idempotency-Key header. */
  idempotent?: boolean;
  success: { status: 200 | 201 | 202; schema?: z.ZodType; description: string; contentType?: string | string[] };
  /** Error statuses besides the ones every operation of its kind can answer. */
  errors: number[];
}

/** A group of operations in the document, with the words that introduce it. */
export interface OperationTag {
  name: string;
  description: string;
}

/** The HTTP surface an engine declares (docs/architecture.md, "Adding an engine"): documented only while it is offered. */
export interface HttpSurface {
  /** Its tags, listed in the document whether the engine is offered or not. */
  readonly tags: readonly OperationTag[];
  /** A sentence for the document's introduction. */
  readonly overview?: string;
  /** Its operations, in the order the document lists them; each one is served by exactly one route. */
  readonly operations: readonly Operation[];
}

/** A route an engine serves: its operation (method, path, document) and the middleware that answers it. */
export interface HttpRoute {
  operation: Operation;
  handlers: RouterMiddleware<AppState>[];
}

/** The success envelope `{success: true, data}` around an answer's schema. */
export const okEnvelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
