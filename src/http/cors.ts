import koaCors from '@koa/cors';
import type { Middleware } from 'koa';
import type { OriginPolicy } from './origin-policy.js';

/** Headers a browser client may send, and answer headers its script may read. */
const ALLOW_HEADERS = ['Authorization', 'Content-Type', 'X-API-Key', 'Idempotency-Key', 'X-Request-Id', 'Accept'];
const EXPOSE_HEADERS = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'];

/**
 * CORS for REST, GraphQL and SSE alike: only the exact origins of CORS_ORIGINS get
 * Access-Control-Allow-Origin (with credentials); any other origin gets no CORS header at all, so its
 * pages cannot read answers or send a preflighted request. Same-origin pages (the dashboard) need none.
 */
export function cors(policy: OriginPolicy): Middleware {
  return koaCors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return policy.isListed(origin) ? origin : '';
    },
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH'],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
  });
}
