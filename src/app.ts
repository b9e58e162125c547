import { Router } from '@koa/router';
import Koa from 'koa';
import { authenticate, type CredentialHeaders } from './domain/auth/authenticate.js';
import getRawBody from 'raw-body';
import { DomainError, Unauthorized } from './domain/errors.js';
import type { Services } from './domain/services.js';
import { admit, type RequestLimiter } from './infra/rate-limit/request-limiter.js';
import type { GraphQLServer } from './graphql/yoga.js';
import type { CallerWatch } from './graphql/caller-watch.js';
import type { Logger } from './infra/logger.js';
import type { AppState } from './rest/context.js';
import { createAuthenticator } from './rest/middleware/authenticate.js';
import { errorEnvelope } from './rest/middleware/error-envelope.js';
import { requestContext } from './rest/middleware/request-context.js';
import { apiKeyRoutes } from './rest/routes/api-keys.js';
import { authRoutes } from './rest/routes/auth.js';
import { healthRoutes } from './rest/routes/health.js';
import { messageRoutes } from './rest/routes/messages.js';
import { instanceSessionRoutes } from './rest/routes/instances-session.js';
import { instanceV1Routes } from './rest/routes/instances-v1.js';
import { sandboxRoutes } from './rest/routes/sandbox.js';
import type { SandboxNetwork } from './infra/engines/sandbox.js';
import type { PhoneInbox } from './infra/engines/sandbox-inbox.js';

export interface AppDeps {
  services: Services;
  graphql: GraphQLServer;
  limiter: RequestLimiter;
  logger: Logger;
  checkReady: () => Promise<Record<string, string>>;
  /** The simulated network's control API, when the sandbox engine is on. */
  sandbox?: { network: SandboxNetwork; inbox: PhoneInbox };
  trustProxy: boolean;
  /** Largest GraphQL request body accepted over HTTP. */
  graphqlMaxBodyBytes: number;
  /** Ends SSE subscription streams whose caller is no longer valid. */
  callers: CallerWatch;
}

export function buildApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.trustProxy });
  // Errors are answered by errorEnvelope and logged there with the request id.
  app.silent = true;

  app.use(requestContext(deps.logger));
  app.use(errorEnvelope());

  // GraphQL reads its own body; yoga answers on the raw Node response. An authenticated caller counts
  // against the same rate limits as on REST; an unauthenticated one gets typed errors from yoga.
  app.use(async (ctx, next) => {
    if (ctx.path !== '/graphql') return next();
    const actor = await authenticate(deps.services.auth, ctx.headers as CredentialHeaders, { apiKey: true, session: true }).catch(
      (error: unknown) => {
        if (error instanceof DomainError) return undefined;
        throw error;
      },
    );
    const streaming = /text\/event-stream/i.test(ctx.get('Accept'));
    if (streaming && !actor) {
      // A subscription stream needs a caller before it opens, as a WebSocket connection does.
      throw new Unauthorized('Authentication required: send an API key in "Authorization: Bearer <key>" or a session cookie.');
    }
    if (actor) {
      const admission = await admit(deps.limiter, actor, (name, value) => ctx.set(name, value));
      if (streaming) {
        // A stream counts as one request but does not keep an in-flight slot while it stays open;
        // it ends once its key is revoked or its session ends.
        admission.leave();
        const res = ctx.res;
        res.once('close', deps.callers.watch(res, ctx.headers as CredentialHeaders, () => res.destroy()));
      } else {
        ctx.res.once('close', admission.leave);
      }
    }
    if (ctx.method === 'POST') {
      // Read with a size limit here; yoga takes a body it is handed as is.
      const length = ctx.get('Content-Length');
      (ctx.req as { body?: Buffer }).body = await getRawBody(ctx.req, { length: length || undefined, limit: deps.graphqlMaxBodyBytes });
    }
    ctx.respond = false;
    deps.graphql.handle(ctx.req, ctx.res, actor);
  });

  const authenticated = createAuthenticator(deps.services.auth, deps.limiter);
  const rest = new Router<AppState>();
  for (const router of [
    healthRoutes(deps.checkReady),
    authRoutes(deps.services.auth),
    apiKeyRoutes(deps.services.apiKeys, authenticated),
    messageRoutes(deps.services.messages, authenticated),
    instanceV1Routes(deps.services.instances, deps.services.webhookTester, deps.services.deliveries, authenticated),
    instanceSessionRoutes(deps.services.instances, deps.services.messages, authenticated),
    ...(deps.sandbox ? [sandboxRoutes(deps.sandbox.network, deps.sandbox.inbox)] : []),
  ]) {
    rest.use(router.routes());
  }
  app.use(rest.routes());
  // 405 with an Allow header for a known path and an unknown method; errorEnvelope adds the body.
  app.use(rest.allowedMethods());
  return app;
}
