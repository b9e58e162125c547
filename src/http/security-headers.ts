import type { Middleware } from 'koa';

/**
 * `nosniff`: no browser reads a JSON answer as a script or a page. `no-store`: answers are one tenant's
 * data, some with secrets shown once, which no browser or proxy may keep. Static files (dashboard assets,
 * the OpenAPI document) set their own caching.
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
