import type { Middleware } from 'koa';
import type { Metrics } from '../../infra/metrics.js';
import type { AppState } from '../../http/context.js';

/** Counts and times every answer by its route pattern (never the raw path: ids would explode the labels). */
export function httpMetrics(metrics: Metrics): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      const route = matched !== undefined ? String(matched) : ctx.path === '/graphql' ? '/graphql' : 'unmatched';
      metrics.request(ctx.method, route, ctx.status, (performance.now() - started) / 1000);
      if (ctx.state.limitHit) metrics.rateLimited(ctx.state.limitHit);
    }
  };
}
