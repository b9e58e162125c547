import { Router } from '@koa/router';
import type { ApiKeysService } from '../../domain/apikeys/apikeys.service.js';
import { actorOf, type AppState, ok } from '../../http/context.js';
import type { Authenticator } from '../middleware/authenticate.js';
import { jsonBody } from '../../http/json-body.js';
import { presentApiKey, presentCreatedApiKey } from '../presenters/api-keys.js';

export function apiKeyRoutes(apiKeys: ApiKeysService, authenticated: Authenticator) {
  const router = new Router<AppState>();
  // Listing also takes the session cookie: the dashboard that creates and revokes keys lists them too.
  const withKeyOrCookie = authenticated({ apiKey: true, session: true });
  const withCookie = authenticated({ session: true });

  router.get('/api-keys', withKeyOrCookie, async (ctx) => {
    ctx.body = ok((await apiKeys.list(actorOf(ctx))).map(presentApiKey));
  });

  router.post('/api-keys', withCookie, jsonBody, async (ctx) => {
    ctx.status = 201;
    ctx.body = ok(presentCreatedApiKey(await apiKeys.create(actorOf(ctx), ctx.state.body)));
  });

  router.delete('/api-keys/:keyId', withCookie, async (ctx) => {
    await apiKeys.revoke(actorOf(ctx), ctx.params.keyId!);
    ctx.body = { success: true, message: 'API key revoked.' };
  });

  return router;
}
