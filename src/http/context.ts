import type { ParameterizedContext } from 'koa';
import type { Actor } from '../domain/actor.js';
import type { Logger } from '../infra/logger.js';

export interface AppState {
  requestId: string;
  log: Logger;
  actor?: Actor;
  /** Parsed JSON body of REST requests (absent when the request had none). */
  body?: unknown;
  /** Which limit a 429 answer hit (metrics). */
  limitHit?: 'requests' | 'daily_quota' | 'login';
}

export type AppContext = ParameterizedContext<AppState>;

export function actorOf(ctx: AppContext): Actor {
  if (!ctx.state.actor) throw new Error('route is missing its authentication middleware');
  return ctx.state.actor;
}

/** The success envelope of the spec. */
export function ok(data: unknown, extra: Record<string, unknown> = {}) {
  return { success: true as const, data, ...extra };
}
