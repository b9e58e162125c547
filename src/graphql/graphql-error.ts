import { GraphQLError } from 'graphql';
import { type DomainError, RateLimited } from '../domain/errors.js';

/** Where a typed error result cannot be returned (refused operations, subscription streams): the REST code in `extensions`. */
export function asGraphQLError(error: DomainError): GraphQLError {
  const retryAfter = error instanceof RateLimited ? { retryAfter: error.retryAfter } : {};
  return new GraphQLError(error.message, { extensions: { code: error.code, ...retryAfter } });
}
