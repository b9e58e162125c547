import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../infra/logger.js';
import type { AppState } from '../../http/context.js';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** Request id in and out, a child logger carrying it, and one access-log line per request. */
export function requestContext(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    // Made when first used: most requests log nothing but their access line.
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', { get: () => (log ??= logger.child({ requestId })), configurable: true, enumerable: true });
    ctx.set('X-Request-Id', requestId);
    if (logger.isLevelEnabled('info')) {
      const started = performance.now();
      ctx.res.once('finish', () => {
        // Path only: query strings are never logged in case a client puts a secret there.
        logger.info(
          { requestId, method: ctx.method, path: ctx.path, status: ctx.res.statusCode, ms: Math.round(performance.now() - started) },
          'request',
        );
      });
    }
    await next();
    // An answer given before the body was read (401, 404, 413…) closes the connection: waiting for
    // the rest of a body nobody will read would hold it open for as long as the client likes.
    if (ctx.respond !== false && !ctx.req.complete) ctx.set('Connection', 'close');
  };
}
