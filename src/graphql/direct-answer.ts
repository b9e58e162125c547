import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DocumentNode, getOperationAST, type GraphQLError } from 'graphql';
import { type Plugin, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/**
 * GraphQL over HTTP's plain case (one JSON POST of a document yoga already validated) answered without
 * yoga's fetch-API layer but through the same plugins; anything else goes to yoga (docs/architecture.md,
 * "The plumbing, why").
 */
export interface DirectAnswers {
  /** Remembers each operation text that parsed and validated, so its next request can be answered directly. */
  plugin: Plugin;
  /** Answers the request and returns true, or returns false without touching it. */
  answer(
    req: IncomingMessage & { body?: Buffer },
    res: ServerResponse,
    serverContext: object,
    headers: () => Record<string, string | string[]>,
  ): boolean;
}

interface Params {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

const PARAM_NAMES = new Set(['query', 'variables', 'operationName', 'extensions']);
/** A single Accept value yoga answers with plain JSON (absent and `*∕*` get application/json, as from yoga). */
const ANSWER_TYPES: Record<string, string> = {
  '': 'application/json',
  '*/*': 'application/json',
  'application/json': 'application/json',
  'application/graphql-response+json': 'application/graphql-response+json',
};

export function directAnswers(
  yoga: () => YogaServerInstance<object, object>,
  maskError: (error: unknown, message: string) => Error,
  log: { error: (obj: object, msg: string) => void },
): DirectAnswers {
  // Bounded like yoga's own document cache: texts are keys, so a flood of distinct documents only evicts.
  const known = new LRUCache<string, true>({ max: 1000 });
  return {
    plugin: {
      onValidate: ({ context }) => ({ result }) => {
        const query = (context as { params?: { query?: unknown } }).params?.query;
        if (!result.length && typeof query === 'string') known.set(query, true);
      },
    },
    answer(req, res, serverContext, headers) {
      const type = ANSWER_TYPES[(req.headers.accept ?? '').replace(/\s|;charset=utf-8$/gi, '').toLowerCase()];
      const params = type && req.body ? plainParams(req.body) : undefined;
      if (!type || !params || !known.get(params.query)) return false;
      void run(yoga(), req, res, serverContext, params, type, headers).catch((error: unknown) => {
        log.error({ err: error }, 'graphql request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: { code: 'server_error', message: 'Internal server error.' } }));
      });
      return true;
    },
  };

  async function run(
    server: YogaServerInstance<object, object>,
    req: IncomingMessage,
    res: ServerResponse,
    serverContext: object,
    params: Params,
    type: string,
    headers: () => Record<string, string | string[]>,
  ) {
    const enveloped = server.getEnveloped({ ...serverContext, req, res, params });
    let result: { data?: unknown; errors?: readonly GraphQLError[] } | AsyncIterable<unknown>;
    try {
      // From yoga's parse cache. Not validated again: this text passed validation before, and the
      // schema and the rules are fixed at start. The cost guard, which needs the variables, runs at execute.
      const document = enveloped.parse(params.query) as DocumentNode;
      const args = {
        schema: enveloped.schema,
        document,
        contextValue: await enveloped.contextFactory(),
        variableValues: params.variables ?? undefined,
        operationName: params.operationName ?? undefined,
      };
      result = await (getOperationAST(document, args.operationName)?.operation === 'subscription' ? enveloped.subscribe(args) : enveloped.execute(args));
    } catch (error) {
      result = { errors: [maskError(error, 'Unexpected error.') as GraphQLError] };
    }
    if (!('errors' in result && result.errors?.length) && !(Symbol.asyncIterator in result)) {
      const body = JSON.stringify(result);
      res.writeHead(200, { ...headers(), 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    // Errors and refusals take yoga's own status and shape.
    const response = await processRegularResult(result as never, server.fetchAPI, type);
    const text = await response.text();
    res.writeHead(response.status, { ...headers(), ...Object.fromEntries(response.headers), 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}

/** The body's parameters when they are exactly what yoga would take from a JSON POST; otherwise undefined. */
function plainParams(body: Buffer): Params | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const params = value as Record<string, unknown>;
  for (const name of Object.keys(params)) if (!PARAM_NAMES.has(name)) return undefined;
  const { query, variables, operationName, extensions } = params;
  if (typeof query !== 'string') return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (extensions != null && (typeof extensions !== 'object' || Array.isArray(extensions))) return undefined;
  return params as unknown as Params;
}
