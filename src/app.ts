import { Router } from '@koa/router';
import Koa from 'koa';
import type { Services } from './domain/services.js';
import type { RequestLimiter } from './infra/rate-limit/request-limiter.js';
import type { GraphQLLoader } from './graphql/lazy.js';
import type { CallerWatch } from './graphql/caller-watch.js';
import { graphqlEndpoint } from './graphql/http-endpoint.js';
import type { Logger } from './infra/logger.js';
import type { AppState } from './http/context.js';
import { createAuthenticator } from './rest/middleware/authenticate.js';
import { errorEnvelope } from './rest/middleware/error-envelope.js';
import { requestContext } from './rest/middleware/request-context.js';
import { apiKeyRoutes } from './rest/routes/api-keys.js';
import { authRoutes } from './rest/routes/auth.js';
import { setupRoutes } from './rest/routes/setup.js';
import { healthRoutes } from './rest/routes/health.js';
import { messageRoutes } from './rest/routes/messages.js';
import { mediaLinkRoutes } from './rest/routes/media-links.js';
import { instanceMessagingRoutes } from './rest/routes/instance-messaging.js';
import { instanceGroupRoutes } from './rest/routes/instance-groups.js';
import { conversationRoutes } from './rest/routes/conversations.js';
import { instanceProfileRoutes } from './rest/routes/instance-profile.js';
import { instanceSettingsRoutes } from './rest/routes/instance-settings.js';
import { instanceRestrictionsRoutes } from './rest/routes/instance-restrictions.js';
import { instanceSessionRoutes } from './rest/routes/instances-session.js';
import { instanceV1Routes } from './rest/routes/instances-v1.js';
import { dashboardPages } from './rest/routes/dashboard.js';
import { openApiRoutes } from './rest/routes/openapi.js';
import { engineRoutes } from './rest/routes/engine-routes.js';
import type { DocumentedEngine } from './rest/openapi/document.js';
import type { HttpRoute } from './http/operation.js';
import type { Metrics } from './infra/metrics.js';
import { httpMetrics } from './rest/middleware/http-metrics.js';
import { metricsRoutes } from './rest/routes/metrics.js';
import { adminRoutes } from './rest/routes/admin.js';
import { cors } from './http/cors.js';
import type { OriginPolicy } from './http/origin-policy.js';
import { securityHeaders } from './http/security-headers.js';
import { evolutionRoutes } from './compat/evolution/routes.js';
import { admit } from './infra/rate-limit/request-limiter.js';

export interface AppDeps {
  services: Services;
  graphql: GraphQLLoader;
  limiter: RequestLimiter;
  logger: Logger;
  checkReady: () => Promise<Record<string, unknown>>;
  /** The routes the offered engines serve, their integrations, and every engine known (credentials fields, tags). */
  engines: { routes: HttpRoute[]; offered: readonly string[]; known: readonly DocumentedEngine[] };
  trustProxy: boolean;
  /** Behind trusted proxies: how many of them append to X-Forwarded-For (the client is that far from the right). */
  proxyHops: number;
  /** Largest GraphQL request body accepted over HTTP. */
  graphqlMaxBodyBytes: number;
  /** Ends SSE subscription streams whose caller is no longer valid. */
  callers: CallerWatch;
  metrics: Metrics;
  /** Bearer token GET /metrics requires, when set. */
  metricsToken: string | undefined;
  /** Bearer token the admin API requires; without it the admin API is off. */
  adminToken: string | undefined;
  /** Which browser origins may read answers and act with the session cookie. */
  origins: OriginPolicy;
  /** Evolution API's paths, when COMPAT_EVOLUTION is on, under their prefix (docs/evolution.md). */
  evolution?: { prefix: string };
}

/** The Koa app, and the REST routes its router serves (each in the OpenAPI document). */
export type GatewayApp = Koa<AppState> & { routes: Array<{ method: string; path: string }> };

export function buildApp(deps: AppDeps): GatewayApp {
  // Only the addresses the trusted proxies appended count; what the client wrote to the left does not.
  const app = new Koa<AppState>({ proxy: deps.trustProxy, maxIpsCount: deps.proxyHops });
  // Errors are answered by errorEnvelope and logged there with the request id.
  app.silent = true;

  app.use(httpMetrics(deps.metrics));
  app.use(requestContext(deps.logger));
  app.use(securityHeaders());
  app.use(errorEnvelope());
  app.use(cors(deps.origins));

  app.use(
    graphqlEndpoint({
      graphql: deps.graphql,
      auth: deps.services.auth,
      limiter: deps.limiter,
      callers: deps.callers,
      maxBodyBytes: deps.graphqlMaxBodyBytes,
      origins: deps.origins,
    }),
  );

  // The web dashboard: a page, not an API route (so not in the OpenAPI document).
  app.use(dashboardPages());

  const authenticated = createAuthenticator(deps.services.auth, deps.limiter, deps.origins);
  const rest = new Router<AppState>();
  for (const router of [
    healthRoutes(deps.checkReady),
    metricsRoutes(deps.metrics, deps.metricsToken),
    adminRoutes(deps.services.tenants, deps.adminToken),
    openApiRoutes({ engines: deps.engines.known, offered: deps.engines.offered }),
    authRoutes(deps.services.auth, deps.origins),
    setupRoutes(deps.services.setup, deps.services.auth),
    apiKeyRoutes(deps.services.apiKeys, authenticated),
    messageRoutes(deps.services.messages, deps.services.mediaDownloads, deps.services.mediaLinks, authenticated),
    mediaLinkRoutes(deps.services.mediaDownloads, deps.services.mediaLinks, deps.limiter),
    instanceV1Routes(deps.services.instances, deps.services.webhookTester, deps.services.deliveries, authenticated),
    instanceSessionRoutes(deps.services.instances, deps.services.messages, authenticated),
    ...instanceMessagingRoutes(deps.services.messages, deps.services.messageActions, deps.services.integrations, deps.services.mediaLinks, authenticated),
    ...instanceGroupRoutes(deps.services.groups, authenticated),
    ...instanceProfileRoutes(deps.services.profile, authenticated),
    ...conversationRoutes(deps.services.conversations, deps.services.mediaLinks, authenticated),
    ...instanceSettingsRoutes(deps.services.settings, authenticated),
    ...instanceRestrictionsRoutes(deps.services.restrictions, authenticated),
    engineRoutes(deps.engines.routes),
  ]) {
    rest.use(router.routes());
  }
  app.use(rest.routes());
  // After the gateway's own routes: a path both serve is the gateway's (docs/evolution.md).
  if (deps.evolution) {
    const evolution = evolutionRoutes({ services: deps.services, admit: (actor, setHeader) => admit(deps.limiter, actor, setHeader) }, deps.evolution.prefix);
    app.use(evolution.routes());
  }
  // 405 with an Allow header for a known path and an unknown method; errorEnvelope adds the body.
  app.use(rest.allowedMethods());
  const routes = rest.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method: method.toLowerCase(), path: String(layer.path) })));
  return Object.assign(app, { routes });
}
