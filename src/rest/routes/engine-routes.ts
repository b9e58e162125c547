import { Router } from '@koa/router';
import type { AppState } from '../../http/context.js';
import type { HttpRoute } from '../../http/operation.js';

/** The routes the offered engines serve, each at its operation's method and path (the document shows the same operations). */
export function engineRoutes(routes: readonly HttpRoute[]) {
  const router = new Router<AppState>();
  for (const { operation, handlers } of routes) router.register(operation.path, [operation.method], handlers);
  return router;
}
