import { GraphQLError } from 'graphql';
import { DomainError, RateLimited } from '../domain/errors.js';

/** Where a typed error result cannot be returned (refused operations, subscription streams): the REST code in `extensions`. */
export function asGraphQLError(error: DomainError): GraphQLError {
  const retryAfter = error instanceof RateLimited ? { retryAfter: error.retryAfter } : {};
  return new GraphQLError(error.message, { extensions: { code: error.code, ...retryAfter } });
}

/** A refusal as a GraphQL error: GraphQL errors pass, domain errors are converted, anything else is a bug and rethrown. */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof DomainError) return asGraphQLError(error);
  throw error;
}
