import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type FormattedExecutionResult as ExecutionResult, print } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { type Client, createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface Credentials {
  key?: string;
  cookie?: string;
}

/** A graphql-ws client: the key goes in connectionParams, a cookie on the upgrade request. */
export function wsClient(baseUrl: string, credentials: Credentials, onClosed?: (code: number, reason: string) => void): Client {
  const cookie = credentials.cookie;
  class CookieWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, cookie ? { headers: { cookie } } : {});
    }
  }
  return createWsClient({
    url: baseUrl.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: CookieWebSocket,
    connectionParams: credentials.key ? { authorization: `Bearer ${credentials.key}` } : {},
    retryAttempts: 0,
    lazy: true,
    on: { closed: (event) => onClosed?.((event as { code: number }).code, (event as { reason: string }).reason) },
  });
}

/** A graphql-sse client in distinct-connections mode (one HTTP stream per subscription). */
export function sseClient(baseUrl: string, credentials: Credentials) {
  return createSseClient({
    url: baseUrl + '/graphql',
    retryAttempts: 0,
    headers: {
      ...(credentials.key ? { authorization: `Bearer ${credentials.key}` } : {}),
      ...(credentials.cookie ? { cookie: credentials.cookie } : {}),
    },
  });
}

export interface Subscription<R> {
  /** The next result, or a failure after `timeoutMs`. */
  next(timeoutMs?: number): Promise<ExecutionResult<R>>;
  /** Results received and not read yet. */
  pending(): number;
  stop(): Promise<void>;
  /** Resolves once the server ended the subscription. */
  ended: Promise<void>;
}

/** Subscribes through any graphql-ws or graphql-sse client and queues what arrives. */
export function subscribe<R, V extends Record<string, unknown>>(
  client: { iterate(request: { query: string; variables: Record<string, unknown> }): AsyncIterableIterator<unknown> },
  document: TypedDocumentNode<R, V>,
  variables: V,
): Subscription<R> {
  const iterator = client.iterate({ query: print(document), variables });
  const received: ExecutionResult<R>[] = [];
  const waiting: Array<(result: ExecutionResult<R>) => void> = [];
  const ended = (async () => {
    for await (const result of iterator) {
      const waiter = waiting.shift();
      if (waiter) waiter(result as ExecutionResult<R>);
      else received.push(result as ExecutionResult<R>);
    }
  })();
  return {
    next(timeoutMs = 5000) {
      const ready = received.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const waiter = (result: ExecutionResult<R>) => {
          clearTimeout(timer);
          resolve(result);
        };
        // A waiter that gave up leaves the queue, so the next result goes to whoever asks next.
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`no subscription event within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
    pending: () => received.length,
    async stop() {
      await iterator.return?.();
    },
    ended: ended.catch(() => undefined),
  };
}

/** One query or mutation over a graphql-ws client: its result, or the errors it was refused with. */
export function executeOnce(client: Client, query: string, variables?: Record<string, unknown>): Promise<ExecutionResult> {
  return new Promise((resolve, reject) => {
    client.subscribe(
      { query, variables },
      {
        next: resolve,
        // An operation refused before it runs (guards, rate limits) ends with an error message.
        error: (error) => (Array.isArray(error) ? resolve({ errors: error }) : reject(error)),
        complete: () => {},
      },
    );
  });
}
