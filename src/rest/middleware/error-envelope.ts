import type { Middleware } from 'koa';
import { DomainError, RateLimited } from '../../domain/errors.js';
import type { AppState } from '../../http/context.js';
import { domainErrorResponse, errorResponse, type ErrorResponse, httpErrorResponse } from '../errors.js';

/** Every failure leaves in the spec's envelope; a 500 never carries internal detail. */
export function errorEnvelope(): Middleware<AppState> {
  return async (ctx, next) => {
    let response: ErrorResponse | undefined;
    try {
      await next();
      if (ctx.respond === false || ctx.body !== undefined) return;
      if (ctx.status === 404) response = errorResponse('not_found', `No route for ${ctx.method} ${ctx.path}.`);
      else if (ctx.status === 405) response = errorResponse('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}.`);
      else return;
    } catch (error) {
      if (clientLeft(error) && (ctx.req.destroyed || ctx.req.socket?.destroyed)) {
        // Nobody is left to read an answer; this is the client's doing, not a server failure.
        ctx.state.log?.debug({ reason: (error as Error).message }, 'client closed the request before its body was read');
        response = errorResponse('invalid_request', 'The request body was not received completely.');
      } else {
        response = toResponse(error);
        if (error instanceof RateLimited) ctx.state.limitHit = 'windows' in error ? 'requests' : error.exceeded ? 'daily_quota' : 'login';
        // An expected failure of something the gateway depends on (the database, the network's media) is a
        // warning; only what nobody expected (a 500) is an error.
        if (response.status >= 500) ctx.state.log?.[error instanceof DomainError ? 'warn' : 'error']({ err: error }, 'request failed');
      }
    }
    ctx.status = response.status;
    for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
    ctx.body = response.body;
  };
}

/** raw-body's errors when the connection went away before or while the body was read. */
function clientLeft(error: unknown): boolean {
  const type = (error as { type?: unknown })?.type;
  return type === 'request.aborted' || type === 'stream.not.readable';
}

function toResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) return domainErrorResponse(error);
  const status = (error as { status?: unknown; expose?: unknown })?.status;
  const expose = (error as { expose?: unknown })?.expose === true;
  if (typeof status === 'number' && expose) {
    const limit = (error as { limit?: unknown }).limit;
    const mapped = httpErrorResponse(status, (error as Error).message, typeof limit === 'number' ? limit : undefined);
    if (mapped) return mapped;
  }
  return errorResponse('server_error', 'Internal server error.');
}
