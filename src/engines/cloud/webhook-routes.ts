import { createHash, timingSafeEqual } from 'node:crypto';
import getRawBody from 'raw-body';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { Forbidden, RateLimited } from '../../domain/errors.js';
import { type AppContext, ok } from '../../http/context.js';
import type { HttpRoute } from '../../http/operation.js';
import { webhookOperations } from './webhook-operations.js';

/** The network sends up to 3 MB (the API's webhook reference); a little room above it. */
export const CLOUD_WEBHOOK_MAX_BYTES = 4 * 1024 * 1024;

export interface CloudWebhookDeps {
  receiver: { receive(raw: Buffer, signature: string | undefined): Promise<{ messages: number; statuses: number }> };
  verifyToken: string;
  /** Requests per source address (the endpoint is outside API-key auth and the tenants' limits). */
  perSource: RateLimiterAbstract;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compared in constant time (the digests have one length whatever the input). */
const sameToken = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

/**
 * The network's callback (docs/engines.md, "Using the official business API") for CHAT-CLOUD instances. GET is the subscription's verification
 * (the challenge back as text when the verify token matches); POST carries messages and statuses,
 * signed with the app secret. Every answer but the challenge is in the error envelope.
 */
export function cloudWebhookRoutes(deps: CloudWebhookDeps): HttpRoute[] {
  const perSource = async (ctx: AppContext, next: () => Promise<unknown>) => {
    try {
      await deps.perSource.consume(ctx.ip);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(((rejection as { msBeforeNext?: number }).msBeforeNext ?? 1000) / 1000));
      throw new RateLimited(retryAfter);
    }
    await next();
  };

  const verify = (ctx: AppContext) => {
    const value = (name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : '');
    const challenge = value('hub.challenge');
    if (value('hub.mode') !== 'subscribe' || !challenge || !sameToken(value('hub.verify_token'), deps.verifyToken)) {
      throw new Forbidden('The verification needs hub.mode=subscribe, a hub.challenge and the verify token this gateway was given (CLOUD_VERIFY_TOKEN).');
    }
    ctx.type = 'text/plain';
    ctx.body = challenge;
  };

  const receive = async (ctx: AppContext) => {
    // The signature covers these exact bytes: they are hashed as received, never re-serialised.
    const raw = await getRawBody(ctx.req, { length: ctx.get('Content-Length') || undefined, limit: CLOUD_WEBHOOK_MAX_BYTES });
    const header = ctx.get('X-Hub-Signature-256');
    ctx.body = ok(await deps.receiver.receive(raw, header === '' ? undefined : header));
  };

  return [
    { operation: webhookOperations.verify, handlers: [perSource, verify] },
    { operation: webhookOperations.receive, handlers: [perSource, receive] },
  ];
}
