// `POST /<version>/<phone-number-id>/messages` (the API's reference): validation, scripted failures, throughput, the
// 24-hour window, then the documented success body and the statuses that follow.
import { invalidParameter, messagingError } from './errors.js';
import { newWamid } from './ids.js';
import type { Answer } from './media.js';
import type { BusinessNumber } from './numbers.js';
import type { StatusReporter } from './statuses.js';
import type { PairLimiter, Throughput } from './throughput.js';
import type { FailNext, ReceivedSend } from './types.js';
import { validateSend } from './validate-send.js';
import type { ServiceWindows } from './window.js';

export interface ReadMark {
  phoneNumberId: string;
  messageId: string;
  typingIndicator: boolean;
  at: number;
}

export interface MessagesEndpointDeps {
  windows: ServiceWindows;
  throughput: Throughput;
  pairs: PairLimiter;
  statuses: StatusReporter;
  mpsLimit: number | undefined;
  windowMode: () => 'sync' | 'async';
  onAccepted: (send: ReceivedSend) => void;
  onRead: (mark: ReadMark) => void;
  /** The number that uploaded a media id (`POST …/media`), if it is still there. */
  mediaOwner?: (mediaId: string) => string | undefined;
}

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

export class MessagesEndpoint {
  private readonly failures = new Map<string, Array<{ code: FailNext['code']; status?: number }>>();

  constructor(private readonly deps: MessagesEndpointDeps) {}

  /** The next `times` sends of the number are answered with that error instead of being accepted. */
  failNext(phoneNumberId: string, spec: FailNext): void {
    const times = spec.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error('times must be a positive integer');
    const queue = this.failures.get(phoneNumberId) ?? [];
    for (let i = 0; i < times; i++) queue.push({ code: spec.code, ...(spec.status !== undefined ? { status: spec.status } : {}) });
    this.failures.set(phoneNumberId, queue);
  }

  /** The token is already checked and may act for `number`. */
  handle(number: BusinessNumber, version: string, raw: string, at: number): Answer {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      const error = invalidParameter('The request body is not valid JSON.', version);
      return { status: error.status, body: error.body };
    }
    const validation = validateSend(parsed);
    if (!validation.ok) {
      const error = invalidParameter(validation.details, version);
      return { status: error.status, body: error.body };
    }
    const valid = validation.send;
    // Media sent by id must be a file this number uploaded (the notes do not give the code: refused as an invalid parameter).
    if (valid.kind === 'message' && MEDIA_TYPES.has(valid.type) && this.deps.mediaOwner) {
      const mediaId = ((parsed as Record<string, Record<string, unknown>>)[valid.type] ?? {}).id;
      if (typeof mediaId === 'string' && this.deps.mediaOwner(mediaId) !== number.phoneNumberId) {
        const error = invalidParameter(`Param ${valid.type}['id'] is not a valid media id for this phone number.`, version);
        return { status: error.status, body: error.body };
      }
    }
    if (valid.kind === 'read') {
      const body = parsed as Record<string, unknown>;
      this.deps.onRead({ phoneNumberId: number.phoneNumberId, messageId: valid.messageId, typingIndicator: body.typing_indicator !== undefined, at });
      return { status: 200, body: { success: true } };
    }

    // Scripted failures hit valid sends only (not read marks), so a test's failure is not eaten by housekeeping.
    const scripted = this.failures.get(number.phoneNumberId)?.shift();
    if (scripted) {
      const error = messagingError(scripted.code, { version, ...(scripted.status !== undefined ? { status: scripted.status } : {}) });
      return { status: error.status, body: error.body };
    }
    const reject = (code: number) => {
      const error = messagingError(code, { version });
      return { status: error.status, body: error.body };
    };
    // Templates always pass; anything else needs a user message within the window.
    const outsideWindow = !valid.template && !this.deps.windows.isOpen(number.phoneNumberId, valid.waId, at);
    if (outsideWindow && this.deps.windowMode() === 'sync') return reject(131047);
    if (this.deps.throughput.full(number.phoneNumberId, number.mpsLimit ?? this.deps.mpsLimit, at)) return reject(130429);
    if (!this.deps.pairs.tryTake(number.phoneNumberId, valid.waId, at)) return reject(131056);
    this.deps.throughput.take(number.phoneNumberId, at);

    const send: ReceivedSend = {
      wamid: newWamid(valid.waId),
      phoneNumberId: number.phoneNumberId,
      to: valid.to,
      waId: valid.waId,
      type: valid.type,
      body: parsed as Record<string, unknown>,
      raw,
      at,
      version,
    };
    this.deps.onAccepted(send);
    // In practice the network often accepts such a send and reports the failure afterwards (the API's reference).
    const steps = outsideWindow ? [{ status: 'failed' as const, code: 131047 }] : this.deps.statuses.scriptFor(number.phoneNumberId, valid.waId);
    this.deps.statuses.run({ send, template: valid.template, ...(valid.bizOpaque !== undefined ? { bizOpaque: valid.bizOpaque } : {}) }, steps);

    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: valid.to, wa_id: valid.waId }],
        // `message_status` is only answered for templates (where pacing may hold them).
        messages: [{ id: send.wamid, ...(valid.template ? { message_status: 'accepted' } : {}) }],
      },
    };
  }
}
