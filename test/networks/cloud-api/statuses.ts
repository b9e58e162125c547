// The statuses the network reports for each accepted send, following a script per number (or per user):
// by default sent → delivered → read, and on request the orders the notes (§4) say happen in practice —
// out of order, repeated, read without delivered — or a failure reported only by webhook.
import { webhookError, versionMajor } from './errors.js';
import { conversationId, unixSeconds } from './ids.js';
import type { ReceivedSend, StatusName, StatusScript, StatusStep } from './types.js';
import type { OutEvent } from './webhooks-out.js';

export const DEFAULT_SCRIPT: StatusScript = ['sent', 'delivered', 'read'];
const STATUS_NAMES: readonly StatusName[] = ['sent', 'delivered', 'read', 'played', 'failed'];
const CONVERSATION_LIFETIME_MS = 24 * 3600 * 1000;

export function normalizeScript(script: StatusScript): StatusStep[] {
  if (!Array.isArray(script)) throw new Error('a status script is an array of steps');
  return script.map((step) => {
    const normalized: StatusStep = typeof step === 'string' ? { status: step } : { ...step };
    if (!STATUS_NAMES.includes(normalized.status)) throw new Error(`unknown status "${String(normalized.status)}"`);
    if (normalized.delayMs !== undefined && !(Number.isFinite(normalized.delayMs) && normalized.delayMs >= 0)) throw new Error('delayMs must be a number ≥ 0');
    if (normalized.code !== undefined && normalized.status !== 'failed') throw new Error('code belongs to a failed step');
    return normalized;
  });
}

export interface SendFacts {
  send: ReceivedSend;
  template: boolean;
  bizOpaque?: string;
}

export class StatusReporter {
  private readonly scripts = new Map<string, StatusStep[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Open conversations per (number, user, category), so repeated statuses share one conversation id. */
  private readonly conversations = new Map<string, { id: string; expiresAt: number }>();

  constructor(
    private readonly defaultDelayMs: number,
    private readonly emit: (event: OutEvent) => void,
  ) {}

  /** Script for later sends of a number, or of a number to one user (`waId`), which wins over the number's. */
  setScript(phoneNumberId: string, script: StatusScript, waId?: string): void {
    this.scripts.set(waId ? `${phoneNumberId}:${waId}` : phoneNumberId, normalizeScript(script));
  }

  scriptFor(phoneNumberId: string, waId: string): StatusStep[] {
    return this.scripts.get(`${phoneNumberId}:${waId}`) ?? this.scripts.get(phoneNumberId) ?? normalizeScript(DEFAULT_SCRIPT);
  }

  /**
   * Schedules each step after the previous one. A first step with `delayMs: 0` is reported before the send's
   * HTTP answer is even written, so a gateway meets a status for a wamid it has not stored yet.
   */
  run(facts: SendFacts, steps: StatusStep[]): void {
    const pricingAt = this.pricingSteps(steps);
    let offset = 0;
    steps.forEach((step, index) => {
      offset += step.delayMs ?? this.defaultDelayMs;
      const report = () => this.emit(this.statusEvent(facts, step, pricingAt.has(index)));
      if (offset === 0) return report();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        report();
      }, offset);
      this.timers.add(timer);
    });
  }

  /** Notes §2: `pricing` "appears only on `sent` and one of `delivered`/`read`". */
  private pricingSteps(steps: StatusStep[]): Set<number> {
    const chosen = new Set<number>();
    steps.forEach((step, i) => step.pricing === true && chosen.add(i));
    const auto = (name: StatusName) => steps.findIndex((step) => step.status === name && step.pricing !== false);
    const sent = auto('sent');
    if (sent >= 0 && !steps.some((s) => s.status === 'sent' && s.pricing === true)) chosen.add(sent);
    const delivered = auto('delivered');
    const second = delivered >= 0 ? delivered : auto('read');
    if (second >= 0 && !steps.some((s) => (s.status === 'delivered' || s.status === 'read') && s.pricing === true)) chosen.add(second);
    return chosen;
  }

  private statusEvent(facts: SendFacts, step: StatusStep, withPricing: boolean): OutEvent {
    const { send } = facts;
    const now = Date.now();
    const status: Record<string, unknown> = { id: send.wamid, status: step.status, timestamp: unixSeconds(now), recipient_id: send.waId };
    if (step.status === 'failed') {
      status.errors = [webhookError(step.code ?? 131026)];
    } else if (withPricing) {
      // Templates are billed (marketing); free-form replies inside the window are free service messages.
      const category = facts.template ? 'marketing' : 'service';
      // `conversation` is omitted in v24.0+ webhooks (the API's webhook reference).
      if (versionMajor(send.version) < 24) {
        const conversation = this.conversation(send, category, now);
        status.conversation = {
          id: conversation.id,
          ...(step.status === 'sent' ? { expiration_timestamp: unixSeconds(conversation.expiresAt) } : {}),
          origin: { type: category },
        };
      }
      status.pricing = facts.template
        ? { billable: true, pricing_model: 'PMP', type: 'regular', category }
        : { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category };
    }
    if (facts.bizOpaque !== undefined) status.biz_opaque_callback_data = facts.bizOpaque;
    return { phoneNumberId: send.phoneNumberId, kind: 'statuses', status };
  }

  private conversation(send: ReceivedSend, category: string, now: number) {
    const key = `${send.phoneNumberId}:${send.waId}:${category}`;
    let conversation = this.conversations.get(key);
    if (!conversation || conversation.expiresAt <= now) {
      conversation = { id: conversationId(), expiresAt: now + CONVERSATION_LIFETIME_MS };
      this.conversations.set(key, conversation);
    }
    return conversation;
  }

  /** Statuses scheduled but not reported yet. */
  scheduled(): number {
    return this.timers.size;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
