import type { WebhookSender } from '../domain/webhooks/webhook-tester.js';

/** POSTs with a timeout; redirects are answers, never followed. */
export function createWebhookSender(timeoutMs: number): WebhookSender {
  return {
    async post(url, headers, body) {
      try {
        const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
        return { statusCode: response.status, body: await response.text() };
      } catch (error) {
        const e = error as Error & { cause?: { code?: string } };
        return { error: e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message) };
      }
    },
  };
}
