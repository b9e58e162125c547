import type { GraphQLServer } from './yoga.js';

/** The GraphQL server, made on the first GraphQL request (HTTP, SSE or WebSocket). */
export type GraphQLLoader = () => Promise<GraphQLServer>;

/**
 * yoga and the schema take ~25 MB: a gateway used over REST alone never loads them, and the first
 * GraphQL request pays the load once.
 */
export function loadOnFirstUse(create: () => Promise<GraphQLServer>): GraphQLLoader {
  let server: Promise<GraphQLServer> | undefined;
  return () => (server ??= create());
}
