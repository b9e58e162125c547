import { Client, fetchExchange, mapExchange, subscriptionExchange } from '@urql/core';
import { type Cache, cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { createClient as createWsClient } from 'graphql-ws';

/** Drops every cached page of a list, so the next read asks the gateway (a row was added or removed). */
function invalidateList(cache: Cache, fieldName: string) {
  for (const field of cache.inspectFields('Query')) if (field.fieldName === fieldName) cache.invalidate('Query', field.fieldName, field.arguments);
}

/**
 * One urql client per signed-in session: queries and mutations over HTTP, subscriptions over
 * graphql-ws on the same origin, both authenticated by the session cookie. The normalized cache
 * merges every entity a payload or an event carries; only rows appearing or disappearing need a word here.
 */
export function createGatewayClient(onSessionEnded: () => void): { client: Client; close(): void } {
  const ws = createWsClient({
    url: `${location.origin.replace(/^http/, 'ws')}/graphql`,
    lazy: true,
    // 4401 (signed out, session over) stops it; anything else is retried.
    retryAttempts: 20,
  });
  const client = new Client({
    url: '/graphql',
    preferGetMethod: false,
    exchanges: [
      // A session that ended (expired, signed out elsewhere) shows the sign-in form: a fresh client asks
      // who is calling, and that question alone does not start over again.
      mapExchange({
        onError(error, operation) {
          const code = error.graphQLErrors[0]?.extensions?.code;
          const asksWho = operation.query.definitions.some((d) => d.kind === 'OperationDefinition' && d.name?.value === 'DashboardMe');
          if ((code === 'unauthorized' || code === 'invalid_api_key') && !asksWho) onSessionEnded();
        },
      }),
      cacheExchange({
        keys: { QrCode: (qr) => String(qr.attemptId), InstanceStatistics: () => null, MessageTimestamps: () => null, TenantLimits: () => null, Usage: () => null, WebhookTestResponse: () => null, WebhookAttempt: () => null },
        resolvers: { Query: { messages: relayPagination() }, Instance: { chats: relayPagination() }, Chat: { messages: relayPagination() } },
        updates: {
          Mutation: {
            createInstance: (_result, _args, cache) => invalidateList(cache, 'instances'),
            deleteInstance: (result, _args, cache) => {
              const id = (result.deleteInstance as { deletedInstanceId?: string | null }).deletedInstanceId;
              if (id) cache.invalidate({ __typename: 'Instance', id });
              invalidateList(cache, 'instances');
            },
            createApiKey: (_result, _args, cache) => invalidateList(cache, 'apiKeys'),
            revokeApiKey: (result, _args, cache) => {
              const id = (result.revokeApiKey as { revokedApiKeyId?: string | null }).revokedApiKeyId;
              if (id) cache.invalidate({ __typename: 'ApiKey', id });
            },
            sendText: (_result, _args, cache) => invalidateList(cache, 'messages'),
            sendMessage: (_result, _args, cache) => invalidateList(cache, 'messages'),
            redeliverWebhook: (_result, args, cache) => {
              const input = args.input as { instanceId: string };
              for (const field of cache.inspectFields({ __typename: 'Instance', id: input.instanceId })) {
                if (field.fieldName === 'webhookDeliveries') cache.invalidate({ __typename: 'Instance', id: input.instanceId }, field.fieldName, field.arguments);
              }
            },
          },
          Subscription: {
            instanceUpdated: (result, _args, cache) => {
              const event = result.instanceUpdated as { instanceId: string; deleted: boolean };
              if (event.deleted) cache.invalidate({ __typename: 'Instance', id: event.instanceId });
              // A new instance is not in any cached list yet.
              const known = cache.resolve({ __typename: 'Instance', id: event.instanceId }, 'name');
              if (event.deleted || known === undefined || known === null) invalidateList(cache, 'instances');
            },
            // A received message is a new row of the message log.
            messageReceived: (_result, _args, cache) => invalidateList(cache, 'messages'),
          },
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { client, close: () => void ws.dispose() };
}
