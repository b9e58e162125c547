// Webhook POSTs from the network to the gateway (the API's webhook reference): the documented envelope, signed over the exact
// bytes sent, retried "with decreasing frequency until the request succeeds" on anything but HTTP 200.
import type { Logger } from 'pino';
import { Agent, request } from 'undici';
import type { Numbers } from './numbers.js';
import type { DeliveryAttempt } from './types.js';
import type { Changes } from './wait.js';
import { serialize, signature1, signature256 } from './webhook-bytes.js';

type Obj = Record<string, unknown>;

/** One thing the network reports; several may share a POST. */
export type OutEvent =
  | { phoneNumberId: string; kind: 'messages'; message: Obj; contact: Obj }
  | { phoneNumberId: string; kind: 'statuses'; status: Obj }
  | { phoneNumberId: string; kind: 'errors'; error: Obj };

interface Delivery {
  id: number;
  body: string;
  signature: string;
  signatureSha1: string;
  attempts: DeliveryAttempt[];
  state: 'queued' | 'in-flight' | 'retrying' | 'delivered' | 'abandoned';
  timer?: NodeJS.Timeout;
}

export interface WebhookSenderOptions {
  numbers: Numbers;
  changes: Changes;
  logger: Logger;
  retryDelaysMs: number[];
  maxAttempts: number;
  timeoutMs: number;
  concurrency: number;
  escapeSlashes: boolean;
}

export class WebhookSender {
  private target: { url: string; verifyToken?: string } | undefined;
  private readonly all: Delivery[] = [];
  /** First attempts wait here so that, with concurrency 1, POSTs leave in the order their events happened. */
  private readonly queue: Delivery[] = [];
  private active = 0;
  private nextId = 1;
  private batch: { size: number; events: OutEvent[]; timer: NodeJS.Timeout } | undefined;
  private closed = false;
  private readonly agent: Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    this.agent = new Agent({ connect: { timeout: options.timeoutMs }, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, keepAliveTimeout: 1000 });
  }

  get url(): string | undefined {
    return this.target?.url;
  }

  get verifyToken(): string | undefined {
    return this.target?.verifyToken;
  }

  /** Where POSTs go. Deliveries made while no URL was set were held, and leave now. */
  setTarget(url: string, verifyToken?: string): void {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('webhook URL must be http(s)');
    this.target = { url, ...(verifyToken !== undefined ? { verifyToken } : {}) };
    this.pump();
  }

  /** Reports one event: alone in its POST, or into the batch `batchNext` opened. */
  enqueue(event: OutEvent): void {
    if (this.batch) {
      this.batch.events.push(event);
      if (this.batch.events.length >= this.batch.size) this.flushBatch();
      return;
    }
    this.post([event]);
  }

  /**
   * The next `size` events share one POST (several entries, changes and messages/statuses, as the network
   * batches them). Whatever has gathered after `windowMs` leaves anyway, so a short batch never hangs.
   */
  batchNext(size: number, windowMs = 2000): void {
    if (!Number.isInteger(size) || size < 1) throw new Error('batch size must be a positive integer');
    this.flushBatch();
    this.batch = { size, events: [], timer: setTimeout(() => this.flushBatch(), windowMs) };
  }

  private flushBatch(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    clearTimeout(batch.timer);
    if (batch.events.length > 0) this.post(batch.events);
  }

  /** Sends the events now, in as few POSTs as signing allows: one per app secret (one per app, as Meta does). */
  post(events: OutEvent[]): number[] {
    return this.envelopes(events).map(({ appSecret, envelope }) => {
      const body = serialize(envelope, { escapeSlashes: this.options.escapeSlashes });
      return this.add(body, signature256(appSecret, body), signature1(appSecret, body));
    });
  }

  /** Posts an earlier delivery's exact bytes again, as a second subscribed app or a retry overlap would. */
  redeliver(deliveryId: number): number {
    const original = this.all.find((d) => d.id === deliveryId);
    if (!original) throw new Error(`no delivery ${deliveryId}`);
    return this.add(original.body, original.signature, original.signatureSha1);
  }

  private add(body: string, signature: string, signatureSha1: string): number {
    const delivery: Delivery = { id: this.nextId++, body, signature, signatureSha1, attempts: [], state: 'queued' };
    this.all.push(delivery);
    this.queue.push(delivery);
    this.options.changes.notify();
    this.pump();
    return delivery.id;
  }

  /** The envelope of the API's webhook reference: entry per WABA, change per (number, kind), value with metadata. */
  private envelopes(events: OutEvent[]): Array<{ appSecret: string; envelope: Obj }> {
    const groups = new Map<string, Map<string, { id: string; changes: Map<string, Obj> }>>();
    for (const event of events) {
      const number = this.options.numbers.require(event.phoneNumberId);
      let entries = groups.get(number.appSecret);
      if (!entries) groups.set(number.appSecret, (entries = new Map()));
      let entry = entries.get(number.businessAccountId);
      if (!entry) entries.set(number.businessAccountId, (entry = { id: number.businessAccountId, changes: new Map() }));
      const key = `${number.phoneNumberId}:${event.kind}`;
      let value = entry.changes.get(key);
      if (!value) {
        value = { messaging_product: 'whatsapp', metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId } };
        if (event.kind === 'messages') value.contacts = [];
        value[event.kind] = [];
        entry.changes.set(key, value);
      }
      if (event.kind === 'messages') {
        const contacts = value.contacts as Obj[];
        if (!contacts.some((c) => c.wa_id === event.contact.wa_id)) contacts.push(event.contact);
        (value.messages as Obj[]).push(event.message);
      } else if (event.kind === 'statuses') {
        (value.statuses as Obj[]).push(event.status);
      } else {
        (value.errors as Obj[]).push(event.error);
      }
    }
    return [...groups].map(([appSecret, entries]) => ({
      appSecret,
      envelope: {
        object: 'whatsapp_business_account',
        entry: [...entries.values()].map((entry) => ({
          id: entry.id,
          changes: [...entry.changes.values()].map((value) => ({ field: 'messages', value })),
        })),
      },
    }));
  }

  private pump(): void {
    while (!this.closed && this.target && this.active < this.options.concurrency && this.queue.length > 0) {
      const delivery = this.queue.shift() as Delivery;
      this.active++;
      void this.attempt(delivery).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  private async attempt(delivery: Delivery): Promise<void> {
    if (this.closed || !this.target) return;
    const url = this.target.url;
    delivery.state = 'in-flight';
    const at = Date.now();
    let status: number | null = null;
    let error: string | undefined;
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'facebookexternalua',
          'x-hub-signature-256': delivery.signature,
          'x-hub-signature': delivery.signatureSha1,
        },
        body: delivery.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.statusCode;
      await response.body.dump();
    } catch (caught) {
      error = caught instanceof Error ? caught.message || caught.name : String(caught);
    }
    if (this.closed) return;
    const attempt: DeliveryAttempt = {
      deliveryId: delivery.id,
      attempt: delivery.attempts.length + 1,
      url,
      body: delivery.body,
      signature: delivery.signature,
      status,
      at,
      ...(error !== undefined ? { error } : {}),
    };
    delivery.attempts.push(attempt);
    // Only 200 counts: "an HTTP status code other than 200" is retried, so 204 is too.
    if (status === 200) {
      delivery.state = 'delivered';
    } else if (delivery.attempts.length >= this.options.maxAttempts) {
      delivery.state = 'abandoned';
      this.options.logger.warn({ deliveryId: delivery.id, status, error }, 'webhook abandoned');
    } else {
      delivery.state = 'retrying';
      const delays = this.options.retryDelaysMs;
      const delay = delays[Math.min(delivery.attempts.length - 1, delays.length - 1)] ?? 1000;
      delivery.timer = setTimeout(() => void this.attempt(delivery), delay);
      this.options.logger.debug({ deliveryId: delivery.id, status, error, delay }, 'webhook retry scheduled');
    }
    this.options.changes.notify();
  }

  /** Every finished attempt so far, in the order they started. */
  attempts(): DeliveryAttempt[] {
    return this.all.flatMap((d) => d.attempts).sort((a, b) => a.at - b.at || a.deliveryId - b.deliveryId || a.attempt - b.attempt);
  }

  /** Events gathered into an open batch, not yet posted. */
  batched(): number {
    return this.batch?.events.length ?? 0;
  }

  /** Deliveries not yet answered 200 and not given up (including those held while no URL is set). */
  pending(): number {
    return this.all.filter((d) => d.state !== 'delivered' && d.state !== 'abandoned').length;
  }

  summary(): Array<{ id: number; state: Delivery['state']; attempts: number; body: string; signature: string }> {
    return this.all.map((d) => ({ id: d.id, state: d.state, attempts: d.attempts.length, body: d.body, signature: d.signature }));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.batch) clearTimeout(this.batch.timer);
    for (const delivery of this.all) clearTimeout(delivery.timer);
    await this.agent.destroy();
  }
}
