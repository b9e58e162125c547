// Small node:http helpers: reading a bounded body, writing an answer, finding the bearer token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import type { Answer } from './media.js';

export class BodyTooLarge extends Error {}

export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  try {
    return await getRawBody(req, { limit: limitBytes });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw new BodyTooLarge('request body too large');
    throw error;
  }
}

export function writeAnswer(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const isBytes = Buffer.isBuffer(answer.body) || typeof answer.body === 'string';
  const payload = isBytes ? (answer.body as Buffer | string) : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...(isBytes ? {} : { 'content-type': 'application/json; charset=UTF-8' }),
    ...extraHeaders,
    ...answer.headers,
    'content-length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

/** `Authorization: Bearer <token>` (Graph also takes `OAuth <token>` and `?access_token=`). */
export function bearerToken(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const match = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : undefined;
  }
  return url.searchParams.get('access_token') ?? undefined;
}
