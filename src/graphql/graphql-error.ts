import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { DomainError, ERROR_CODES, RateLimited, Unavailable } from '../domain/errors.js';

/**
 * Every GraphQL error carries `extensions.code`, one of the REST codes (the `ErrorCode` enum):
 * expected failures keep their own, a document or argument the schema refuses is `invalid_request`,
 * and anything else is masked as `server_error` with no detail.
 */

/** Failures of the caller rather than of one field: the HTTP status a `application/graphql-response+json` answer may carry. */
const HTTP_STATUS: Partial<Record<DomainError['code'], number>> = {
  unauthorized: 401,
  invalid_api_key: 401,
  rate_limit_exceeded: 429,
  service_unavailable: 503,
};

/** Errors a mutation cannot report as its own userErrors: nothing ran, whatever the operation. */
export function isCallerError(error: DomainError): boolean {
  return HTTP_STATUS[error.code] !== undefined;
}

function extensionsOf(error: DomainError) {
  const retryAfter = error instanceof RateLimited || error instanceof Unavailable ? { retryAfter: error.retryAfter } : {};
  const status = HTTP_STATUS[error.code];
  // `spec: true`: an `application/json` answer stays 200, as GraphQL over HTTP asks.
  return { code: error.code, ...retryAfter, ...(status ? { http: { status, spec: true } } : {}) };
}

/** A domain refusal as a GraphQL error, at the place of `located` when there is one. */
export function asGraphQLError(error: DomainError, located?: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: located?.nodes,
    source: located?.source,
    positions: located?.positions,
    path: located?.path,
    extensions: extensionsOf(error),
  });
}

/** A refusal as a GraphQL error: GraphQL errors pass, domain errors are converted, anything else is a bug and rethrown. */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof DomainError) return asGraphQLError(error);
  throw error;
}

function withCode(located: GraphQLError, code: string, message = located.message): GraphQLError {
  return new GraphQLError(message, {
    nodes: located.nodes,
    source: located.source,
    positions: located.positions,
    path: located.path,
    extensions: { ...located.extensions, code },
  });
}

const isErrorCode = (code: unknown): code is DomainError['code'] => (ERROR_CODES as readonly unknown[]).includes(code);

/** The innermost cause of a (possibly located) GraphQL error. */
function causeOf(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError && !current.extensions.code) current = current.originalError;
  return current;
}

/** yoga's `maskError`: gives every error its code; hides what is not an expected failure. */
export function codedError(error: unknown, maskedMessage: string): Error {
  const located = error instanceof GraphQLError ? error : undefined;
  const cause = causeOf(error);
  if (cause instanceof DomainError) return asGraphQLError(cause, located);
  if (cause instanceof GraphQLError) {
    // Parse and validation errors (the document), refusals already coded by the gateway.
    const code = cause.extensions.code;
    if (isErrorCode(code)) return located?.path ? withCode(located, code, cause.message) : cause;
    if (!cause.originalError) return withCode(located ?? cause, 'invalid_request', cause.message);
  }
  // Page arguments and cursors the connection helpers refuse.
  if (cause instanceof PothosValidationError && located) return withCode(located, 'invalid_request', cause.message);
  return new GraphQLError(maskedMessage, {
    nodes: located?.nodes,
    positions: located?.positions,
    path: located?.path,
    extensions: { code: 'server_error', unexpected: true },
  });
}

/** Validation errors as graphql-ws hands them back (it does not run yoga's masking on them). */
export function codedErrors(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map((error) => codedError(error, 'Unexpected error.') as GraphQLError);
}

/** An error as a socket sends it: no HTTP status (there is none to set) and no internal markers. */
export function withoutHttp(error: GraphQLError): GraphQLError {
  const { http: _http, unexpected: _unexpected, ...extensions } = error.extensions;
  if (extensions === error.extensions || (!_http && !_unexpected)) return error;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions });
}
