import type { IncomingMessage, ServerResponse } from 'node:http';
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Registry } from 'prom-client';
import { createYoga, type Plugin } from 'graphql-yoga';
import { type ExecutionArgs, GraphQLError } from 'graphql';
import type { Actor } from '../domain/actor.js';
import type { LiveFeed } from '../domain/network/live-events.js';
import type { Services } from '../domain/services.js';
import type { PrismaClient } from '../infra/db/database.js';
import type { Logger } from '../infra/logger.js';
import { verifyCaller } from './verify-caller.js';
import { serialize as serializeCookie } from 'cookie';
import { SESSION_COOKIE, SESSION_COOKIE_ATTRIBUTES, sessionToken } from '../domain/auth/authenticate.js';
import type { GraphQLContext } from './context.js';
import { type GraphQLLimits, guardPlugins } from './guards.js';
import { schema } from './schema.js';
import { codedError, codedErrors } from './graphql-error.js';
import { directAnswers } from './direct-answer.js';
import { costRefusal } from './cost.js';

/** What each transport hands yoga: the Node request, and the caller once it is known. */
export interface ServerContext {
  req?: IncomingMessage;
  res?: ServerResponse;
  /** The caller a WebSocket connection authenticated as. */
  connectionActor?: Actor;
  /** What the HTTP layer knows of an HTTP request, and the cookies its answer sets. */
  http?: HttpExchange;
}

/**
 * One object in the request's server context rather than three weak maps keyed by the request: no
 * lookups, and no weak map entries (ephemerons) for the garbage collector to trace until the request dies.
 */
interface HttpExchange {
  /** The caller the HTTP layer already authenticated (to rate-limit it), not looked up twice. */
  actor?: Actor;
  /** Whether the client reached us over TLS (as the HTTP layer sees it, proxies included): the cookie's Secure flag. */
  secure: boolean;
  ip: string;
  cookies: string[];
}

export function createGraphQL(deps: {
  services: Services;
  prisma: PrismaClient;
  live: LiveFeed;
  logger: Logger;
  limits: GraphQLLimits;
  /** Where GraphQL operation metrics go (GET /metrics). */
  metrics?: Registry;
}) {
  const { services, prisma, live, logger } = deps;
  const log = logger.child({ component: 'graphql' });
  const inBackground = (work: () => Promise<unknown>) =>
    void setImmediate(() => void work().catch((error: unknown) => log.error({ err: error }, 'background work after a GraphQL answer failed')));

  const direct = directAnswers(() => yoga as never, codedError, log);
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // CORS is the app's, the same for REST, GraphQL and SSE (yoga's default reflects any origin).
    cors: false,
    landingPage: false,
    graphiql: { title: 'Messaging Gateway' },
    // GraphiQL from the installed package, not a CDN (works offline and behind strict CSPs); its 5 MB
    // bundle is loaded on the first page view only.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    logging: yogaLogger(log),
    // Every error carries extensions.code; unexpected ones are masked as server_error.
    maskedErrors: { maskError: codedError },
    plugins: [
      ...guardPlugins(deps.limits),
      codedValidationErrors,
      direct.plugin,
      {
        onResponse: ({ response, serverContext }) => {
          for (const cookie of (serverContext as ServerContext | undefined)?.http?.cookies ?? []) response.headers.append('set-cookie', cookie);
        },
      },
      // Operations by type and name, their duration and their errors by phase; HTTP is counted by the app.
      ...(deps.metrics
        ? [
            usePrometheus({
              registry: deps.metrics,
              endpoint: false,
              metrics: {
                graphql_envelop_request: true,
                graphql_envelop_request_duration: true,
                graphql_envelop_error_result: true,
                graphql_envelop_request_time_summary: false,
                graphql_envelop_phase_parse: false,
                graphql_envelop_phase_validate: false,
                graphql_envelop_phase_context: false,
                graphql_envelop_phase_execute: false,
                graphql_envelop_phase_subscribe: false,
                graphql_envelop_deprecated_field: false,
                graphql_envelop_schema_change: false,
                graphql_yoga_http_duration: false,
              },
            }),
          ]
        : []),
    ],
    context: ({ request, req, connectionActor, http }): GraphQLContext => {
      const known = connectionActor ?? http?.actor;
      let actor: Promise<Actor> | undefined = known ? Promise.resolve(known) : undefined;
      return {
        services,
        prisma,
        live,
        inBackground,
        session: req
          ? {
              clientIp: http?.ip ?? '',
              token: () => sessionToken(req.headers.cookie),
              set: (token, expires) => {
                http?.cookies.push(serializeCookie(SESSION_COOKIE, token ?? '', { ...SESSION_COOKIE_ATTRIBUTES, secure: http.secure, expires }));
              },
            }
          : undefined,
        actor: () => {
          actor ??= verifyCaller(services.auth, {
            authorization: req?.headers.authorization ?? request?.headers.get('authorization') ?? undefined,
            cookie: req?.headers.cookie ?? request?.headers.get('cookie') ?? undefined,
          });
          return actor;
        },
      };
    },
  });
  return {
    yoga,
    /** The cost guard's refusal of an operation about to run, for a transport that answers it before executing (WebSocket). */
    overLimits: (args: ExecutionArgs) => costRefusal(deps.limits, args.schema, args.document, args.operationName, args.variableValues),
    /** Answers one HTTP request on the raw Node response. */
    handle(req: IncomingMessage, res: ServerResponse, options: { actor?: Actor; secure: boolean; ip: string }) {
      const http: HttpExchange = { ...options, cookies: [] };
      if (direct.answer(req, res, { http }, (): Record<string, string[]> => (http.cookies.length ? { 'set-cookie': http.cookies } : {}))) return;
      Promise.resolve(yoga.handle(req, res, { http })).catch((error: unknown) => {
        log.error({ err: error }, 'graphql request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: { code: 'server_error', message: 'Internal server error.' } }));
      });
    },
  };
}

/**
 * yoga logs every error it re-codes as if it were a failure; a refusal with a code of its own
 * (not_found, a rate limit, a bad document or cursor) is an answer, logged at debug. The rest stays an error.
 */
function yogaLogger(log: Logger) {
  const expected = (error: unknown) => (codedError(error, '') as GraphQLError).extensions?.code !== 'server_error';
  return {
    debug: (...args: unknown[]) => log.debug(args),
    info: (...args: unknown[]) => log.info(args),
    warn: (...args: unknown[]) => log.warn(args),
    error: (...args: unknown[]) => {
      const [first] = args;
      if (expected(first)) log.debug({ err: first }, 'graphql refusal');
      else log.error({ err: first }, 'graphql error');
    },
  };
}

/** A document the schema refuses is the client's to fix: invalid_request, like any bad input. */
const codedValidationErrors: Plugin = {
  onValidate: () => ({ result, setResult }) => {
    if (result.length) setResult(codedErrors(result as GraphQLError[]));
  },
};

export type GraphQLServer = ReturnType<typeof createGraphQL>;
