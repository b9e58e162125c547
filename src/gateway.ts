import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { type Config, graphqlLimitsOf, policiesOf } from './config.js';
import { createServices, type Services } from './domain/services.js';
import { createGraphQL } from './graphql/yoga.js';
import { serveGraphQLOverWebSocket } from './graphql/ws.js';
import { createCallerWatch } from './graphql/caller-watch.js';
import { createInfra, type Infra, type InfraOptions } from './infra/infra.js';
import type { Logger } from './infra/logger.js';

export interface Gateway {
  infra: Infra;
  services: Services;
  server: Server;
  /** Base URL the gateway listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  close(graceMs?: number): Promise<void>;
}

/** Composition root: infra → services → HTTP app → listening server. */
export async function startGateway(config: Config, logger: Logger, options: InfraOptions = {}): Promise<Gateway> {
  const infra = await createInfra(config, logger, options);
  const services = createServices(infra.ports, policiesOf(config));
  infra.sandbox.connect(services.engineEvents);

  if (config.GATEWAY_ADMIN_EMAIL && config.GATEWAY_ADMIN_PASSWORD) {
    const admin = await services.tenants.ensureAdmin({
      email: config.GATEWAY_ADMIN_EMAIL,
      password: config.GATEWAY_ADMIN_PASSWORD,
      plan: config.GATEWAY_ADMIN_PLAN,
    });
    logger.info({ email: admin.user.email, created: admin.created }, 'admin user ready');
  }

  const graphql = createGraphQL({ services, prisma: infra.db.prisma, live: infra.liveFeed, logger, limits: graphqlLimitsOf(config) });
  const callers = createCallerWatch(services.auth, config.GRAPHQL_WS_REAUTH_S * 1000, logger);
  const app = buildApp({
    services,
    graphql,
    limiter: infra.requestLimiter,
    sandbox: config.ENGINE === 'sandbox' ? { network: infra.sandbox, inbox: infra.sandboxInbox } : undefined,
    logger,
    checkReady: () => infra.checkReady(),
    trustProxy: config.TRUST_PROXY,
    graphqlMaxBodyBytes: config.GRAPHQL_MAX_BODY_BYTES,
    callers,
  });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  const webSockets = serveGraphQLOverWebSocket(server, {
    graphql,
    auth: services.auth,
    limiter: infra.requestLimiter,
    logger,
    maxPayloadBytes: config.GRAPHQL_MAX_BODY_BYTES,
    callers,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  await services.resume();
  await infra.sandbox.resume();
  await infra.deliveries.start();
  // QR expiry and rotation have second granularity; a half-second clock keeps them on time.
  let ticking: Promise<void> | undefined;
  const clock = setInterval(() => {
    ticking ??= services
      .tick()
      .catch((error: unknown) => logger.error({ err: error }, 'background tick failed'))
      .finally(() => (ticking = undefined));
  }, 500);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;

  return {
    infra,
    services,
    server,
    url,
    /** Stops accepting, lets requests in progress finish for up to `graceMs`, then closes what is left. */
    async close(graceMs = 5000) {
      clearInterval(clock);
      callers.stop();
      await webSockets.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), graceMs).unref();
      });
      await ticking;
      await services.dispatcher.idle();
      await infra.close();
    },
  };
}
