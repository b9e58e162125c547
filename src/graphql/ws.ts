import type { IncomingMessage, Server } from 'node:http';
import { type ExecutionArgs, GraphQLError } from 'graphql';
import type { Context } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Actor } from '../domain/actor.js';
import type { AuthService } from '../domain/auth/auth.service.js';
import type { CredentialHeaders } from '../domain/auth/authenticate.js';
import type { CallerWatch } from './caller-watch.js';
import { verifyCaller } from './verify-caller.js';
import { DomainError } from '../domain/errors.js';
import { codedErrors, toGraphQLError, withoutHttp } from './graphql-error.js';
import { admit, type RequestLimiter } from '../infra/rate-limit/request-limiter.js';
import type { Logger } from '../infra/logger.js';
import type { GraphQLLoader } from './lazy.js';
import type { GraphQLServer } from './yoga.js';
import { sessionToken } from '../domain/auth/authenticate.js';
import { type OriginPolicy, requestOrigin } from '../http/origin-policy.js';

type Extra = {
  socket: WebSocket;
  request: IncomingMessage;
  /** What the connection authenticated with, checked again for every operation. */
  credentials?: CredentialHeaders;
};

/** Credentials missing, expired or revoked: graphql-ws clients stop retrying on this code. */
const UNAUTHORIZED = 4401;
const FORBIDDEN = 4403;

/** The close code for a caller that could not be verified: 4401 when its credentials are the reason. */
const closeCodeOf = (error: DomainError) => (error.code === 'unauthorized' || error.code === 'invalid_api_key' ? UNAUTHORIZED : FORBIDDEN);
const closeReason = (code: number) => (code === UNAUTHORIZED ? 'Unauthorized' : 'Forbidden');

type Enveloped = ReturnType<GraphQLServer['yoga']['getEnveloped']>;

/** The host the client addressed, as Koa reads it for HTTP requests (X-Forwarded-Host behind a trusted proxy). */
function hostOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-host'] : undefined;
  const raw = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || req.headers.host || '';
  return raw;
}

/**
 * graphql-ws at /graphql: a connection authenticates once (a Bearer key in connectionParams or the
 * upgrade's session cookie) or is closed 4401/4403, and the caller watch closes it once the key or session
 * ends; each operation runs yoga's plugins and the rate limits (docs/graphql.md).
 */
export function serveGraphQLOverWebSocket(
  server: Server,
  deps: {
    graphql: GraphQLLoader;
    auth: AuthService;
    limiter: RequestLimiter;
    logger: Logger;
    maxPayloadBytes: number;
    callers: CallerWatch;
    origins: OriginPolicy;
    trustProxy: boolean;
  },
) {
  const log = deps.logger.child({ component: 'graphql-ws' });
  const wss = new WebSocketServer({
    server,
    path: '/graphql',
    maxPayload: deps.maxPayloadBytes,
    // A browser sends the session cookie with an upgrade from any page: one with the cookie must come
    // from a page the origin policy trusts (cross-site WebSocket hijacking), refused before any message.
    // A connection that authenticates with a key in connectionParams carries no cookie and is not checked.
    verifyClient: ({ req }, done) => {
      if (!sessionToken(req.headers.cookie) || deps.origins.trusts(requestOrigin(req.headers, hostOf(req, deps.trustProxy)))) return done(true);
      log.debug({ origin: req.headers.origin }, 'websocket upgrade with a session cookie from an untrusted origin refused');
      done(false, 403, 'Forbidden');
    },
  });
  wss.on('error', (error) => log.warn({ err: error }, 'websocket server error'));

  // Over a socket there is no HTTP status to carry.
  const refuse = (error: unknown): readonly GraphQLError[] => codedErrors([toGraphQLError(error)]).map(withoutHttp);

  const verify = (credentials: CredentialHeaders) => verifyCaller(deps.auth, credentials);
  const unwatch = new WeakMap<WebSocket, () => void>();
  // Connections that passed onConnect, to count their running operations (metrics).
  const open = new Set<Context<Record<string, unknown> | undefined, Extra>>();

  const disposable = useServer<Record<string, unknown> | undefined, Extra>(
    {
      connectionInitWaitTimeout: 10_000,
      onConnect: async (ctx) => {
        const authorization = ctx.connectionParams?.authorization;
        const credentials = { authorization: typeof authorization === 'string' ? authorization : undefined, cookie: ctx.extra.request.headers.cookie };
        try {
          const actor = await verify(credentials);
          ctx.extra.credentials = credentials;
          const socket = ctx.extra.socket;
          unwatch.set(socket, deps.callers.watch(socket, credentials, actor, () => socket.close(UNAUTHORIZED, 'Unauthorized')));
          open.add(ctx);
          return true;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const code = closeCodeOf(error);
          ctx.extra.socket.close(code, closeReason(code));
          return false;
        }
      },
      onClose: (ctx) => {
        open.delete(ctx);
        unwatch.get(ctx.extra.socket)?.();
      },
      onSubscribe: async (ctx: Context<Record<string, unknown> | undefined, Extra>, _id, payload) => {
        let actor: Actor;
        try {
          actor = await verify(ctx.extra.credentials!);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const code = closeCodeOf(error);
          ctx.extra.socket.close(code, closeReason(code));
          return refuse(error);
        }
        try {
          // Each operation counts like an HTTP request; none keeps an in-flight slot (a subscription may live for hours).
          (await admit(deps.limiter, actor, () => {})).leave();
          const graphql = await deps.graphql();
          const enveloped = graphql.yoga.getEnveloped({ req: ctx.extra.request, connectionActor: actor, params: payload });
          const document = enveloped.parse(payload.query);
          const args: ExecutionArgs & { rootValue: Enveloped } = {
            schema: enveloped.schema,
            document,
            operationName: payload.operationName,
            variableValues: payload.variables,
            contextValue: await enveloped.contextFactory(),
            rootValue: enveloped,
          };
          const errors = enveloped.validate(args.schema, args.document);
          if (errors.length) return codedErrors(errors);
          // Over the cost or node limit: an error message, like a document the guards refuse.
          const refused = graphql.overLimits(args);
          return refused ? [withoutHttp(refused)] : args;
        } catch (error) {
          return refuse(error);
        }
      },
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors?.length ? { ...result, errors: result.errors.map((e) => withoutHttp(e as GraphQLError)) } : result),
      onError: (_ctx, _id, _payload, errors) => {
        log.debug({ errors: errors.map((e) => e.message) }, 'operation failed');
        return errors.map(withoutHttp);
      },
    },
    wss,
  );

  return {
    /** Closes every socket (1001 going away) and stops accepting. */
    async close() {
      await disposable.dispose();
    },
    connections: () => wss.clients.size,
    operations: () => [...open].reduce((sum, ctx) => sum + Object.keys(ctx.subscriptions).length, 0),
  };
}
