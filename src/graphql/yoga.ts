import type { IncomingMessage, ServerResponse } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { authenticate } from '../domain/auth/authenticate.js';
import type { Actor } from '../domain/actor.js';
import type { Services } from '../domain/services.js';
import type { PrismaClient } from '../infra/db/database.js';
import type { Logger } from '../infra/logger.js';
import type { GraphQLContext } from './context.js';
import { schema } from './schema.js';

interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

export function createGraphQL(deps: { services: Services; prisma: PrismaClient; logger: Logger }) {
  const { services, prisma, logger } = deps;
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Messaging Gateway' },
    logging: logger.child({ component: 'graphql' }),
    context: ({ request }): GraphQLContext => {
      let actor: Promise<Actor> | undefined;
      return {
        services,
        prisma,
        actor: () => {
          actor ??= authenticate(
            services.auth,
            {
              authorization: request.headers.get('authorization') ?? undefined,
              cookie: request.headers.get('cookie') ?? undefined,
            },
            { apiKey: true, session: true },
          );
          return actor;
        },
      };
    },
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQL>;
