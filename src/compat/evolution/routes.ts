import { Router } from '@koa/router';
import type { AppState } from '../../http/context.js';
import type { EvolutionDeps } from './operation.js';
import { chatRoutes } from './routes/chat.js';
import { groupRoutes } from './routes/group.js';
import { instanceRoutes } from './routes/instance.js';
import { messageRoutes } from './routes/message.js';
import { webhookRoutes } from './routes/webhook.js';

export type { Admit, EvolutionDeps } from './operation.js';

/**
 * Evolution API v2's REST surface (docs/evolution.md), a thin adapter over the domain's services
 * like REST and GraphQL: under `prefix` (COMPAT_EVOLUTION_PREFIX), mounted after the gateway's own
 * routes, so that where a path is both, the gateway's answers.
 */
export function evolutionRoutes(deps: EvolutionDeps, prefix: string): Router<AppState> {
  const router = new Router<AppState>(prefix ? { prefix } : {});
  instanceRoutes(router, deps);
  messageRoutes(router, deps);
  chatRoutes(router, deps);
  groupRoutes(router, deps);
  webhookRoutes(router, deps);
  return router;
}
