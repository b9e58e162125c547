import type { WebhookSender } from '../domain/webhooks/webhook-tester.js';
import { describeFailure, type OutboundHttp } from './outbound-http.js';

/** POSTs a webhook; redirects are answers, never followed. Reads at most 64 KiB of the answer. */
export function createWebhookSender(http: OutboundHttp, timeoutMs: number): WebhookSender {
  return {
    async post(url, headers, body) {
      try {
        const answer = await http.send('POST', url, { headers, body, maxBytes: 64 * 1024 });
        return { statusCode: answer.statusCode, body: answer.body.toString('utf8') };
      } catch (error) {
        return { error: describeFailure(error, timeoutMs, url) };
      }
    },
  };
}
