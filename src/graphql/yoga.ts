import type { IncomingMessage, ServerResponse } from 'node:http';
import { createYoga } from 'graphql-yoga';
import type { Actor } from '../domain/actor.js';
import type { LiveFeed } from '../domain/instances/live-events.js';
import type { Services } from '../domain/services.js';
import type { PrismaClient } from '../infra/db/database.js';
import type { Logger } from '../infra/logger.js';
import { verifyCaller } from './verify-caller.js';
import type { GraphQLContext } from './context.js';
import { type GraphQLLimits, guardPlugins } from './guards.js';
import { schema } from './schema.js';

/** What each transport hands yoga: the Node request, and the caller once it is known. */
export interface ServerContext {
  req?: IncomingMessage;
  res?: ServerResponse;
  /** The caller a WebSocket connection authenticated as. */
  connectionActor?: Actor;
}

export function createGraphQL(deps: { services: Services; prisma: PrismaClient; live: LiveFeed; logger: Logger; limits: GraphQLLimits }) {
  const { services, prisma, live, logger } = deps;
  const log = logger.child({ component: 'graphql' });
  // Callers the HTTP layer already authenticated (to rate-limit them) are not looked up twice.
  const authenticated = new WeakMap<IncomingMessage, Actor>();
  const inBackground = (work: () => Promise<unknown>) =>
    void setImmediate(() => void work().catch((error: unknown) => log.error({ err: error }, 'background work after a GraphQL answer failed')));

  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Messaging Gateway' },
    // GraphiQL from the installed package, not a CDN (works offline and behind strict CSPs); its 5 MB
    // bundle is loaded on the first page view only.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    logging: log,
    plugins: guardPlugins(deps.limits),
    context: ({ request, req, connectionActor }): GraphQLContext => {
      const known = connectionActor ?? (req && authenticated.get(req));
      let actor: Promise<Actor> | undefined = known ? Promise.resolve(known) : undefined;
      return {
        services,
        prisma,
        live,
        inBackground,
        actor: () => {
          actor ??= verifyCaller(services.auth, {
            authorization: request?.headers.get('authorization') ?? undefined,
            cookie: request?.headers.get('cookie') ?? undefined,
          });
          return actor;
        },
      };
    },
  });
  return {
    yoga,
    /** Answers one HTTP request on the raw Node response. */
    handle(req: IncomingMessage, res: ServerResponse, actor?: Actor) {
      if (actor) authenticated.set(req, actor);
      Promise.resolve(yoga.requestListener(req, res)).catch((error: unknown) => {
        log.error({ err: error }, 'graphql request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: { code: 'server_error', message: 'Internal server error.' } }));
      });
    },
  };
}

export type GraphQLServer = ReturnType<typeof createGraphQL>;
