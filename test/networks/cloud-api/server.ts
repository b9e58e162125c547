// The HTTP server: `/control/…` for people and tests, the media download path, and the Graph routes.
// Every non-control request is recorded with its arrival time and answer, for throughput checks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { wwwAuthenticate, type ApiError } from './errors.js';
import { handleGraph, type GraphDeps } from './graph.js';
import { bearerToken, writeAnswer } from './http.js';
import { fbtraceId } from './ids.js';
import { DOWNLOAD_PATH, type Answer } from './media.js';
import type { RequestRecord } from './types.js';

export interface ServerDeps extends GraphDeps {
  logger: Logger;
  control: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  record: (entry: RequestRecord) => void;
}

function graphHeaders(answer: Answer, url: URL): Record<string, string> {
  const headers: Record<string, string> = { 'x-fb-trace-id': fbtraceId() };
  const version = /^\/(v\d+\.\d+)\//.exec(url.pathname)?.[1];
  if (version) headers['facebook-api-version'] = version;
  const body = answer.body as { error?: unknown };
  if (answer.status >= 400 && typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object') {
    headers['www-authenticate'] = wwwAuthenticate(answer as ApiError);
  }
  return headers;
}

export function createCloudApiServer(deps: ServerDeps): Server {
  return createServer((req, res) => {
    const at = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/control' || url.pathname.startsWith('/control/')) {
      void deps.control(req, res, url);
      return;
    }
    let phoneNumberId: string | undefined;
    res.on('finish', () =>
      deps.record({ method: req.method ?? 'GET', path: url.pathname, at, status: res.statusCode, ...(phoneNumberId !== undefined ? { phoneNumberId } : {}) }),
    );
    void (async () => {
      try {
        if (url.pathname === DOWNLOAD_PATH || url.pathname === DOWNLOAD_PATH.slice(0, -1)) {
          const answer: Answer = req.method === 'GET' ? deps.media.download(url.searchParams, bearerToken(req, url)) : { status: 405, body: 'Method Not Allowed' };
          req.resume();
          writeAnswer(res, answer);
          return;
        }
        const result = await handleGraph(req, url, deps, at);
        phoneNumberId = result.phoneNumberId;
        req.resume();
        writeAnswer(res, result.answer, graphHeaders(result.answer, url));
      } catch (error) {
        // Graph's own answer to an internal failure; reaching it is a bug in this server.
        deps.logger.error({ err: error, path: url.pathname }, 'cloud api request failed');
        writeAnswer(res, { status: 500, body: { error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1, fbtrace_id: fbtraceId() } } });
      }
    })();
  });
}
