import { randomUUID } from 'node:crypto';
import type { Actor } from '../actor.js';
import { Invalid } from '../errors.js';
import { TEST_EVENT } from '../events/catalogue.js';
import { testPayload } from '../events/envelopes.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { Clock } from '../ports.js';
import { signedHeaders } from './signature.js';

/** One HTTP POST to a receiver; the answer or why there was none. */
export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string): Promise<{ statusCode: number; body: string } | { error: string }>;
}

export const TEST_RESPONSE_BODY_LIMIT = 1024;

export type WebhookTester = ReturnType<typeof createWebhookTester>;

/** POST …/webhook/test: a signed webhook.test event, sent now, with the receiver's answer. */
export function createWebhookTester(deps: { instances: Pick<InstancesService, 'ownedInstance'>; sender: WebhookSender; clock: Clock }) {
  return {
    async test(actor: Actor, instanceId: string) {
      const instance = await deps.instances.ownedInstance(actor, instanceId);
      if (!instance.webhookUrl) throw new Invalid('The instance has no webhook URL; set one first.');
      const now = deps.clock.now();
      const body = testPayload(instance.id, now);
      const answer = await deps.sender.post(instance.webhookUrl, signedHeaders(instance, randomUUID(), TEST_EVENT, body, now), body);
      if ('error' in answer) return { status: 'failed' as const, error: answer.error };
      return { status: 'sent' as const, response: { statusCode: answer.statusCode, body: answer.body.slice(0, TEST_RESPONSE_BODY_LIMIT) } };
    },
  };
}
