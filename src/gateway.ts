import { createServer, type Server, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { buildApp } from './app.js';
import { errorResponse } from './rest/errors.js';
import { type Config, graphqlLimitsOf, policiesOf } from './config.js';
import { createServices, type Services } from './domain/services.js';
import { loadOnFirstUse } from './graphql/lazy.js';
import { serveGraphQLOverWebSocket } from './graphql/ws.js';
import { createCallerWatch } from './graphql/caller-watch.js';
import { createInfra, type Infra, type InfraOptions } from './compose/compose.js';
import type { Logger } from './infra/logger.js';
import { createOriginPolicy } from './http/origin-policy.js';

export interface Gateway {
  infra: Infra;
  services: Services;
  server: Server;
  /** Base URL the gateway listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  /** The REST routes served (each one is in GET /openapi.json). */
  routes: Array<{ method: string; path: string }>;
  close(options?: ShutdownOptions): Promise<void>;
}

export interface ShutdownOptions {
  /** How long /readyz answers 503 before the gateway stops accepting (load balancers move away meanwhile). */
  drainMs?: number;
  /** How long requests in progress may take to finish before their connections are closed. */
  graceMs?: number;
}

/**
 * Failures Node's HTTP parser reports before the app sees a request (too slow, malformed) are
 * answered in the same envelope as everything else, then the connection is closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable) return socket.destroy();
  const { status, body } =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? errorResponse('request_timeout', 'The request (headers and body) was not received in time.')
      : errorResponse('invalid_request', 'The request could not be parsed as HTTP.');
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}

/**
 * While no user exists, a one-time link to create the first account. This log line is the only place
 * the token is ever written (the database keeps its hash): the message itself, not a field that
 * redaction would hide.
 */
async function offerFirstAccount(services: Services, logger: Logger, baseUrl: string) {
  const setup = await services.setup.openIfNoUser();
  if (!setup) return;
  logger.warn(
    { expiresAt: setup.expiresAt.toISOString() },
    `no user yet: create the first account at ${baseUrl.replace(/\/$/, '')}/#/setup/${setup.token} (works once, for one hour)`,
  );
}

/** Composition root: infra → services → HTTP app → listening server. */
export async function startGateway(config: Config, logger: Logger, options: InfraOptions = {}): Promise<Gateway> {
  const infra = await createInfra(config, logger, options);
  const services = createServices(infra.ports, policiesOf(config));
  infra.connect(services);

  if (config.GATEWAY_ADMIN_EMAIL && config.GATEWAY_ADMIN_PASSWORD) {
    const admin = await services.tenants.ensureAdmin({
      email: config.GATEWAY_ADMIN_EMAIL,
      password: config.GATEWAY_ADMIN_PASSWORD,
      plan: config.GATEWAY_ADMIN_PLAN,
    });
    if (admin.user) logger.info({ email: admin.user.email, created: admin.created }, 'admin user ready');
    else {
      logger.warn(
        { email: config.GATEWAY_ADMIN_EMAIL },
        'GATEWAY_ADMIN_EMAIL names no user of this gateway, which has accounts already: nothing was created. Sign in with an existing account, or add a tenant with the CLI (tenant:create)',
      );
    }
  }

  let draining = false;
  const graphql = loadOnFirstUse(async () =>
    (await import('./graphql/yoga.js')).createGraphQL({
      services,
      prisma: infra.db.prisma,
      live: infra.liveFeed,
      logger,
      limits: graphqlLimitsOf(config),
      metrics: infra.metrics.registry,
    }),
  );
  const origins = createOriginPolicy(config.CORS_ORIGINS);
  const callers = createCallerWatch(services.auth, config.GRAPHQL_WS_REAUTH_S * 1000, logger, infra.invalidation);
  const app = buildApp({
    services,
    graphql,
    limiter: infra.requestLimiter,
    engines: infra.offered,
    logger,
    checkReady: () => (draining ? Promise.reject(new Error('shutting down')) : infra.checkReady()),
    trustProxy: config.TRUST_PROXY,
    proxyHops: config.TRUST_PROXY_HOPS,
    graphqlMaxBodyBytes: config.GRAPHQL_MAX_BODY_BYTES,
    callers,
    metrics: infra.metrics,
    metricsToken: config.METRICS_TOKEN,
    adminToken: config.ADMIN_TOKEN,
    origins,
    evolution: config.COMPAT_EVOLUTION ? { prefix: config.COMPAT_EVOLUTION_PREFIX } : undefined,
  });
  const server = createServer(
    {
      // A client gets this long to send its headers and body (slow-loris bodies are cut off with 408).
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      headersTimeout: config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1000, config.REQUEST_TIMEOUT_MS),
    },
    app.callback(),
  );
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  // While draining, answers tell keep-alive clients to reconnect elsewhere.
  server.on('request', (_req, res) => {
    if (draining) res.shouldKeepAlive = false;
  });
  const webSockets = serveGraphQLOverWebSocket(server, {
    graphql,
    auth: services.auth,
    limiter: infra.requestLimiter,
    logger,
    maxPayloadBytes: config.GRAPHQL_MAX_BODY_BYTES,
    callers,
    origins,
    trustProxy: config.TRUST_PROXY,
  });
  infra.metrics.watchWebSockets(webSockets.connections, webSockets.operations);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  await infra.start(services);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
  await offerFirstAccount(services, logger, config.PUBLIC_URL ?? url);

  return {
    infra,
    services,
    server,
    url,
    routes: app.routes,
    /**
     * Answers /readyz with 503 for `drainMs`, then stops accepting, closes WebSockets (1001) and
     * subscription streams, lets requests in progress finish for up to `graceMs`, and closes what is left.
     */
    async close({ drainMs = 0, graceMs = 5000 }: ShutdownOptions = {}) {
      draining = true;
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      await infra.stopSweeps();
      callers.stop();
      // WebSockets are told the server is going away (1001) before the caller watch ends what is left (SSE streams).
      await webSockets.close();
      callers.endAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), graceMs).unref();
      });
      // Nothing new is dispatched here; what is in progress finishes, then the leases go to other nodes at once.
      await infra.handBack(services);
      await infra.close();
    },
  };
}
