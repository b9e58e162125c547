import { createHash } from 'node:crypto';
import { Router } from '@koa/router';
import { sameHash } from '../../domain/apikeys/api-key-format.js';
import { bearerToken } from '../../domain/auth/authenticate.js';
import { Unauthorized } from '../../domain/errors.js';
import type { Metrics } from '../../infra/metrics.js';
import type { AppState } from '../../http/context.js';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** GET /metrics in Prometheus text format; behind `METRICS_TOKEN` (bearer) when it is set, never rate limited. */
export function metricsRoutes(metrics: Metrics, token: string | undefined) {
  const router = new Router<AppState>();
  const expected = token === undefined ? undefined : digest(token);
  router.get('/metrics', async (ctx) => {
    if (expected) {
      const given = bearerToken(ctx.get('authorization') || undefined);
      // Digests of equal length, compared in constant time: the token's length does not leak either.
      if (!given || !sameHash(digest(given), expected)) throw new Unauthorized('Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".');
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
