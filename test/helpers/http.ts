import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { expect } from 'vitest';
import { checkResponse } from './openapi-check.js';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is, without JSON encoding. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  key?: string;
  cookie?: string;
}

/** A small client for the gateway's REST API over real HTTP. */
export function client(baseUrl: string) {
  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.cookie) headers.cookie = options.cookie;
    let body: string | Uint8Array | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(new URL(path, baseUrl), { method, headers, body: body as BodyInit | undefined });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    // Every answer a test sees is also checked against the OpenAPI document.
    checkResponse(method, response.url, response.status, response.headers.get('content-type'), parsed);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
  return {
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = any>(path: string, options?: RequestOptions) => request<T>('POST', path, options),
    put: <T = any>(path: string, options?: RequestOptions) => request<T>('PUT', path, options),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
    /** A GraphQL operation; the answer's `data` and `errors` as the server sent them. */
    graphql: async <T = any>(query: string, variables: Record<string, unknown> = {}, options: RequestOptions = {}) =>
      request<{ data?: T; errors?: GraphQLErrors }>('POST', '/graphql', { ...options, body: { query, variables } }),
    /** A typed operation (test/graphql/operations.ts). */
    operation: async <R, V>(document: TypedDocumentNode<R, V>, variables: V, options: RequestOptions = {}) =>
      request<{ data?: R; errors?: GraphQLErrors }>('POST', '/graphql', {
        ...options,
        body: { query: print(document), variables },
      }),
  };
}

export type Client = ReturnType<typeof client>;

/** Errors of a GraphQL answer: every one carries `extensions.code`. */
export type GraphQLErrors = Array<{ message: string; path?: Array<string | number>; extensions?: { code?: string; retryAfter?: number } & Record<string, unknown> }>;

/** The codes of a GraphQL answer's errors, in order. */
export function codesOf(body: { errors?: GraphQLErrors }): Array<string | undefined> {
  return (body.errors ?? []).map((error) => error.extensions?.code);
}

/** The expected failure envelope. */
export function failure(code: string) {
  return { success: false, error: expect.objectContaining({ code, message: expect.any(String) }) };
}
