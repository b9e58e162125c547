import { Router } from '@koa/router';
import type { AppState } from '../../http/context.js';
import { errorResponse } from '../errors.js';

export function healthRoutes(checkReady: () => Promise<Record<string, unknown>>) {
  const router = new Router<AppState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { success: true, data: { status: 'ok' } };
  });
  router.get('/readyz', async (ctx) => {
    try {
      ctx.body = { success: true, data: { status: 'ready', ...(await checkReady()) } };
    } catch (error) {
      const response = errorResponse('service_unavailable', `Not ready: ${(error as Error).message}.`);
      ctx.status = response.status;
      ctx.body = response.body;
    }
  });
  return router;
}
