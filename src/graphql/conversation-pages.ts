import { NotOfInstance } from '../domain/conversations/not-of-instance.js';
import { DomainError, Invalid, NotFound } from '../domain/errors.js';

/**
 * The conversations service reads lists as REST pages them (`cursor`, `limit`, a next cursor); these
 * turn its pages and refusals into GraphQL's (docs/graphql.md "Conversations").
 */

/** A connection's answer from a service page: `next` is the cursor after the page's last item. */
export function pageOf<T>(edges: Array<{ node: T; cursor: string }>, next: string | null, totalCount: () => Promise<number>) {
  return {
    edges,
    pageInfo: { hasNextPage: next !== null, hasPreviousPage: false, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
    totalCount,
  };
}

/** A refusal of a list's query, naming the GraphQL argument (`first`, `after`) rather than the REST parameter. */
export async function asGraphQLArgs<T>(read: Promise<T>, names: Record<string, string>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw Invalid.of(error.problems.map((p) => ({ field: p.field && [names[p.field[0]!] ?? p.field[0]!, ...p.field.slice(1)], message: p.message })));
  }
}

/**
 * A lookup of one chat or contact as a query shows it: another tenant's instance, or an id the instance
 * does not have, is null with not_found (a malformed id stays invalid_request).
 */
export async function found<T>(lookup: Promise<T>, what: string): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    // An id the instance does not have, as opposed to one that cannot be read.
    if (error instanceof NotOfInstance) throw new NotFound(what);
    throw error instanceof DomainError && error.code === 'forbidden' ? new NotFound(what) : error;
  }
}
