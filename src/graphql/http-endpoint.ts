import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import type { CredentialHeaders } from '../domain/auth/authenticate.js';
import type { AuthService } from '../domain/auth/auth.service.js';
import { DomainError } from '../domain/errors.js';
import { asGraphQLError, isCallerError } from './graphql-error.js';
import { admit, type RequestLimiter } from '../infra/rate-limit/request-limiter.js';
import type { CallerWatch } from './caller-watch.js';
import { verifyCaller } from './verify-caller.js';
import type { GraphQLLoader } from './lazy.js';
import { whenDone } from '../http/when-done.js';
import { crossOriginRefusal, type OriginPolicy, requestOrigin } from '../http/origin-policy.js';

/**
 * Bodies GraphQL takes. A form (urlencoded, multipart) or text/plain is a "simple" request a page of
 * any site can send without a preflight; refusing them means every cross-site write needs one, which
 * CORS then refuses.
 */
const BODY_TYPES = ['application/json', 'application/graphql-response+json'];

/**
 * `/graphql` over HTTP and SSE in the Koa app. A caller counts against REST's rate limits; without one,
 * yoga answers coded errors (a subscription stream needs a caller before it opens). The body is read
 * here with a size limit, and yoga answers on the raw Node response.
 */
export function graphqlEndpoint(deps: {
  graphql: GraphQLLoader;
  auth: AuthService;
  limiter: RequestLimiter;
  callers: CallerWatch;
  maxBodyBytes: number;
  origins: OriginPolicy;
}): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/graphql') return next();
    if (ctx.method === 'POST' && !ctx.is(BODY_TYPES)) {
      ctx.status = 415;
      ctx.body = { errors: [{ message: `Content-Type must be ${BODY_TYPES.join(' or ')}.`, extensions: { code: 'invalid_request' } }] };
      return;
    }
    const credentials = ctx.headers as CredentialHeaders;
    // Clients that can take either answer (urql) list JSON first and get a stream only for a
    // subscription; one that lists only the stream must be a caller before it opens. Either may stay
    // open for hours, so neither keeps an in-flight slot.
    const accept = ctx.get('Accept');
    const mayStream = /text\/event-stream/i.test(accept);
    const streaming = /^\s*text\/event-stream/i.test(accept);
    try {
      const actor = await verifyCaller(deps.auth, credentials).catch((error: unknown) => {
        // A stream cannot open without its caller. Otherwise a caller that could not be verified is
        // left to the resolvers, which answer with coded errors (a query may need no caller at all).
        if (streaming || !(error instanceof DomainError)) throw error;
        return undefined;
      });
      // Mutations come only by POST (yoga refuses them over GET); one made with the session cookie must
      // come from a page the origin policy trusts. A cross-site page could not read the answer of a query either.
      if (actor?.kind === 'user' && ctx.method === 'POST' && !deps.origins.trusts(requestOrigin(ctx.headers, ctx.host))) {
        forbid(ctx);
        return;
      }
      if (actor) {
        const admission = await admit(deps.limiter, actor, (name, value) => ctx.set(name, value));
        if (mayStream) {
          // A stream counts as one request but does not keep an in-flight slot while it stays open;
          // it ends once its key is revoked or its session ends.
          admission.leave();
          const res = ctx.res;
          whenDone(res, deps.callers.watch(res, credentials, actor, () => res.destroy()));
        } else {
          whenDone(ctx.res, admission.leave);
        }
      }
      if (ctx.method === 'POST') {
        // yoga takes a body it is handed as is.
        const length = ctx.get('Content-Length');
        (ctx.req as { body?: Buffer }).body = await getRawBody(ctx.req, { length: length || undefined, limit: deps.maxBodyBytes });
      }
      const graphql = await deps.graphql();
      ctx.respond = false;
      graphql.handle(ctx.req, ctx.res, { actor, secure: ctx.secure, ip: ctx.ip });
    } catch (error) {
      if (!(error instanceof DomainError) || !isCallerError(error)) throw error;
      refuse(ctx, error, streaming);
    }
  };
}

/** A cookie-authenticated POST from an untrusted page: 403, as a GraphQL response. */
function forbid(ctx: Parameters<Middleware>[0]) {
  const { message, extensions } = asGraphQLError(crossOriginRefusal()).toJSON();
  ctx.status = 403;
  ctx.type = /application\/graphql-response\+json/i.test(ctx.get('Accept')) ? 'application/graphql-response+json' : 'application/json';
  ctx.body = { errors: [{ message, extensions }] };
}

/**
 * A caller refused before anything ran (credentials, rate limit, outage) gets a GraphQL error with its
 * code, and the refusal's status (401, 429, 503) where GraphQL over HTTP allows one: for
 * `application/graphql-response+json` and streams; plain `application/json` stays 200.
 */
function refuse(ctx: Parameters<Middleware>[0], error: DomainError, streaming: boolean) {
  const { message, extensions } = asGraphQLError(error).toJSON();
  const { http, ...rest } = extensions as { http?: { status: number } };
  const graphqlResponse = /application\/graphql-response\+json/i.test(ctx.get('Accept'));
  if ('retryAfter' in rest) ctx.set('Retry-After', String(rest.retryAfter));
  // Counted as a refusal of the request limits, whatever the status (GET /metrics).
  if (error.code === 'rate_limit_exceeded') ctx.state.limitHit = 'requests';
  ctx.status = graphqlResponse || streaming ? (http?.status ?? 400) : 200;
  ctx.type = graphqlResponse ? 'application/graphql-response+json' : 'application/json';
  ctx.body = { errors: [{ message, extensions: rest }] };
}
