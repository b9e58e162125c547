import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { Invalid } from '../domain/errors.js';
import { MAX_MEDIA_BODY_BYTES } from '../domain/media/limits.js';
import type { AppState } from './context.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Parses a JSON request body of at most `limit` bytes into ctx.state.body (413 past it). Mounted on
 * REST routes only (GraphQL reads its own body). A request without a body is fine; a body that is not
 * JSON is not.
 */
export function jsonBodyOf(limit: number): Middleware<AppState> {
  return async (ctx, next) => {
    const length = ctx.get('Content-Length');
    const hasBody = (length !== '' && length !== '0') || ctx.get('Transfer-Encoding') !== '';
    if (hasBody) {
      if (!ctx.is('application/json')) throw new Invalid('Content-Type must be application/json.');
      const charset = ctx.request.charset || 'utf-8';
      if (!/^utf-?8$/i.test(charset)) throw new Invalid('The request body must be UTF-8 JSON.');
      const text = await getRawBody(ctx.req, { length: length || undefined, limit, encoding: 'utf8' });
      if (text.trim() !== '') {
        try {
          ctx.state.body = JSON.parse(text);
        } catch {
          throw new Invalid('The request body is not valid JSON.');
        }
      }
    }
    await next();
  };
}

/** Every REST route's body: at most 1 MiB. */
export const jsonBody = jsonBodyOf(MAX_BODY_BYTES);

/** The body of a send that may carry a file as base64 (POST …/instances/<id>/messages). */
export const mediaJsonBody = jsonBodyOf(MAX_MEDIA_BODY_BYTES);
