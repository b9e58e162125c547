import type { Middleware } from 'koa';

/**
 * Headers every answer carries. `nosniff`: a browser never reads a JSON answer as a script or a
 * page. `no-store`: answers are one tenant's data, and some carry secrets shown once (a new API
 * key, a session, a webhook secret, a pairing code); no browser or proxy cache may keep them.
 * Static files (dashboard assets, the OpenAPI document) set their own caching.
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
