import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { KnownEngine } from '../../domain/network/credentials.js';
import type { Credential, HttpSurface, Operation } from '../../http/operation.js';
import { operations, pathParams, toOpenApiPath } from './operations.js';
import { ErrorEnvelope } from './schemas.js';

const ERROR_WORDS: Record<number, string> = {
  400: 'the request is not valid (code invalid_request or unsupported_media_type)',
  401: 'no valid credential (unauthorized, invalid_api_key); on the admin API also when the gateway has no ADMIN_TOKEN',
  403: "another tenant's resource, a plan limit, a change sent with the session cookie from another site's page, or a media link malformed, altered or expired (forbidden, instance_limit_reached, media_link_invalid)",
  404: 'not found (not_found)',
  410: 'the network no longer has the media (media_expired)',
  408: 'the body did not arrive in time (request_timeout)',
  409: 'not possible in the current state (instance_unavailable, instance_inactive, instance_name_taken, idempotency_conflict, edit_window_closed, message_not_sent, message_not_yours, message_deleted, test_mode_mismatch)',
  413: 'the body is too large (payload_too_large)',
  416: 'the Range starts past the end of the file (range_not_satisfiable); Content-Range names its size',
  422: "the instance's engine cannot do this (not_supported; the message names the integration and the capability), a proxy that could not be used (proxy_unreachable), or a first message to a phone with no account (not_on_network); nothing was stored",
  429: 'a rate limit or a quota (rate_limit_exceeded); Retry-After says when to try again',
  502: "the network's copy of a received file does not match what its message vouched for (media_invalid; nothing of it is sent), or the network refused or failed an action (network_error; nothing changed)",
  503: 'a dependency is not answering (service_unavailable); Retry-After says when to try again',
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const authenticated = op.auth.length > 0 && !op.auth.includes('metricsToken') && !op.auth.includes('adminToken');
  // Besides its own: credentials and limits when authenticated, a body that is not valid JSON or too
  // large or too slow, and a database that does not answer (everything but the process's own pages).
  const own = !['Health', 'Operations'].includes(op.tag) || op.path === '/readyz';
  // A write with the session cookie from a page the origin policy does not trust is refused (CSRF).
  const cookieWrite = op.method !== 'get' && (op.auth.includes('sessionCookie') || (op.method === 'delete' && op.path === '/auth/sessions'));
  const statuses = [
    ...new Set([...op.errors, ...(authenticated ? [401, 429] : []), ...(cookieWrite ? [403] : []), ...(op.body ? [400, 408, 413] : []), ...(own ? [503] : [])]),
  ].sort();
  const params = pathParams(op.path);
  return {
    tags: [op.tag],
    summary: op.summary,
    operationId: `${op.method}${op.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    security: op.auth.length ? op.auth.map((name: Credential) => ({ [name]: [] })) : [],
    requestParams: {
      ...(params ? { path: params } : {}),
      ...(op.query ? { query: op.query.partial() } : {}),
      ...(op.idempotent
        ? { header: z.object({ 'Idempotency-Key': z.string().min(1).max(255).regex(/^[\x21-\x7e]+$/).optional().meta({ description: 'printable ASCII without spaces; the same key and body within 24 h answer as the first time, without sending again' }) }) }
        : {}),
    },
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses: {
      [op.success.status]: {
        description: op.success.description,
        ...(authenticated ? { headers: RATE_LIMIT_HEADERS } : {}),
        content: Object.fromEntries([op.success.contentType ?? 'application/json'].flat().map((type) => [type, op.success.schema ? { schema: op.success.schema } : {}])),
      },
      ...Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/Error${status}` }])),
    },
  };
}

/** An engine as the document sees it: its credentials field, and the HTTP surface it declares. */
export interface DocumentedEngine extends KnownEngine {
  readonly http?: HttpSurface;
}

/** What the document describes: every engine the gateway knows, and which of them are offered. */
export interface DocumentOptions {
  /** In catalogue order: their credentials fields and tags always, their operations when offered. */
  engines: readonly DocumentedEngine[];
  /** The integrations of the offered engines. */
  offered: readonly string[];
}

/** The OpenAPI 3.1 document of the REST API, built from the schemas the routes validate with. */
export function buildOpenApiDocument(options: DocumentOptions) {
  const surfaces = options.engines.flatMap((engine) => (engine.http ? [{ ...engine.http, offered: options.offered.includes(engine.integration) }] : []));
  const paths: ZodOpenApiPathsObject = {};
  for (const op of [...operations(options.engines), ...surfaces.flatMap((surface) => (surface.offered ? surface.operations : []))]) {
    const path = toOpenApiPath(op.path);
    paths[path] = { ...paths[path], [op.method]: operationObject(op) };
  }
  const rateLimitHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Messaging Gateway REST API',
      version: '1',
      description:
        'Tenants send messages to phone numbers, link phones to instances by QR code, and receive signed webhooks. ' +
        'Every answer is `{success: true, data}` or `{success: false, error: {code, message}}`. ' +
        'The same operations exist in GraphQL at `/graphql` (HTTP, SSE and graphql-ws).' +
        surfaces.map((surface) => (surface.overview ? ` ${surface.overview}` : '')).join(''),
    },
    // In the order a reader needs them; the engines' own last, whether offered or not.
    tags: [
      { name: 'Messages', description: 'Send and read messages.' },
      { name: 'Instances (v1)', description: 'Instances through the API-key API (`/v1/chat/instances`).' },
      { name: 'Instances (session)', description: 'Instances through the session-cookie API (`/chat/instances`).' },
      { name: 'Groups', description: "Groups of an instance's number: list, create, change, participants, invite code, leave." },
      { name: 'Conversations', description: "An instance's chats, their messages (history included) and contacts, as the gateway keeps them; lists are paged by an opaque cursor." },
      { name: 'Profile and privacy', description: "The instance's own name, about text and picture, its privacy settings and its block list, as the network holds them." },
      { name: 'Webhooks', description: "Webhook settings, signing secrets, tests and the delivery log." },
      { name: 'API keys', description: 'Keys for the API; the full key is shown once.' },
      { name: 'Sessions', description: 'Log in and out (the session cookie).' },
      { name: 'Health', description: 'Liveness and readiness for load balancers.' },
      { name: 'Operations', description: 'Metrics and this document.' },
      { name: 'Administration', description: "The operator's API: tenants' plans and limits, behind ADMIN_TOKEN (off without it)." },
      ...surfaces.flatMap((surface) => surface.tags),
    ],
    paths,
    components: {
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'an API key: `Authorization: Bearer mgw_live_…` (or mgw_test_…)' },
        xApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'an API key in X-API-Key (messages endpoints)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'auth-session', description: 'the session cookie set by POST /auth/sessions' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when the gateway is configured with one' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN: the admin API is off without it' },
      },
      headers: {
        'X-RateLimit-Limit': rateLimitHeader('requests allowed in the tightest window'),
        'X-RateLimit-Remaining': rateLimitHeader('requests left in that window'),
        'X-RateLimit-Reset': rateLimitHeader('when that window resets, in Unix seconds'),
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_WORDS).map(([status, description]) => [
          `Error${status}`,
          {
            description,
            ...(status === '429' || status === '503' ? { headers: { 'Retry-After': { description: 'seconds', schema: { type: 'integer' as const } } } } : {}),
            content: { 'application/json': { schema: ErrorEnvelope } },
          },
        ]),
      ),
    },
  });
}
