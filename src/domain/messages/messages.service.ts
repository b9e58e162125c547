import { type Actor, assertSameTenant, modeOf } from '../actor.js';
import { Conflict, NotFound } from '../errors.js';
import { fingerprint, IDEMPOTENCY_TTL_MS, parseIdempotencyKey } from '../idempotency/idempotency.js';
import type { Clock } from '../ports.js';
import { parseInput } from '../validation.js';
import { listMessagesInput, sendMessageInput } from './messages.input.js';
import { type DailyQuotas, type QuotaCounter, takeDailyQuota } from './send-quota.js';
import type { MessageRecord, MessageRouter, MessageStore, SendResult, StoredAnswer } from './messages.ports.js';

export const TEST_PREFIX = '[TEST] ';
const SEND_SCOPE = 'messages.send';

/** What a test key sends is marked so nobody mistakes it for a real message. */
export function outboundText(text: string, mode: 'test' | 'production'): string {
  return mode === 'test' ? TEST_PREFIX + text : text;
}

export function toSendResult(message: MessageRecord): SendResult {
  return { id: message.id, status: message.status, timestamp: message.createdAt.toISOString(), mode: message.mode };
}

export type MessagesService = ReturnType<typeof createMessagesService>;

export function createMessagesService(deps: {
  messages: MessageStore;
  router: MessageRouter;
  clock: Clock;
  quota: QuotaCounter;
  quotas: DailyQuotas;
}) {
  const { messages, router, clock, quota, quotas } = deps;

  function replay(stored: StoredAnswer, requestFingerprint: string): SendResult {
    if (stored.fingerprint !== requestFingerprint) {
      throw new Conflict('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.');
    }
    return stored.response;
  }

  return {
    async send(actor: Actor, input: unknown, rawIdempotencyKey?: string): Promise<SendResult> {
      const idempotencyKey = parseIdempotencyKey(rawIdempotencyKey);
      const data = parseInput(sendMessageInput, input);
      const now = clock.now();
      const requestFingerprint = fingerprint(data);
      if (idempotencyKey) {
        const stored = await messages.findAnswer(actor.tenantId, SEND_SCOPE, idempotencyKey, now);
        if (stored) return replay(stored, requestFingerprint);
      }

      const route = await router.route(actor.tenantId);
      if (route.kind === 'none') {
        throw new Conflict('instance_unavailable', 'No active instance: create and connect an instance first.');
      }
      const mode = modeOf(actor);
      const giveBack = await takeDailyQuota(quota, quotas, actor, now);
      const result = await messages.createOutbound(
        {
          tenantId: actor.tenantId,
          instanceId: route.kind === 'instance' ? route.instanceId : null,
          apiKeyId: actor.kind === 'apiKey' ? actor.apiKeyId : null,
          to: data.to,
          text: outboundText(data.text, mode),
          mode,
          queuedAt: now,
        },
        idempotencyKey
          ? {
              scope: SEND_SCOPE,
              key: idempotencyKey,
              fingerprint: requestFingerprint,
              expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
            }
          : undefined,
        toSendResult,
      ).catch(async (error: unknown) => {
        await giveBack();
        throw error;
      });
      if ('replay' in result) {
        await giveBack();
        return replay(result.replay, requestFingerprint);
      }
      return result.response;
    },

    async list(actor: Actor, input: unknown) {
      const { page, limit } = parseInput(listMessagesInput, input);
      const { items, total } = await messages.listByTenant(actor.tenantId, (page - 1) * limit, limit);
      return { items, page, limit, total, pages: Math.ceil(total / limit) };
    },

    async get(actor: Actor, id: string) {
      const message = await messages.findById(id);
      if (!message) throw new NotFound('Message');
      assertSameTenant(actor, message);
      return message;
    },
  };
}
