import type { BusinessProfile } from './numbers.js';
import type { ReadMark } from './messages-endpoint.js';
import type { AddNumber, DeliveryAttempt, FailNext, InboundMessage, ReceivedSend, RequestRecord, StatusScript } from './types.js';
import type { VerifyResult } from './webhook-verify.js';

/** The local business API as tests drive it; index.ts builds it. */
export interface CloudApi {
  /** `http://127.0.0.1:<port>`: what the gateway's `CLOUD_API_URL` gets. */
  url: string;

  // The business side: numbers and their credentials.
  addNumber(number: AddNumber): void;
  /** Later calls with that number's token answer 190 (HTTP 401). */
  expireToken(phoneNumberId: string): void;
  replaceToken(phoneNumberId: string, token: string): void;
  /** The number's business profile as the API keeps it; `change` sets fields first (the picture as its URL). */
  businessProfile(phoneNumberId: string, change?: Partial<BusinessProfile>): BusinessProfile;

  // The app's webhook subscription.
  /** Where the network POSTs (the gateway's `/webhooks/cloud`). Deliveries held while none was set leave now. */
  setWebhook(url: string, verifyToken?: string): void;
  /** The `GET ?hub.mode=subscribe&hub.challenge=…&hub.verify_token=…` the network makes (token default: the one set). */
  verifyWebhook(verifyToken?: string): Promise<VerifyResult>;

  // What the API received.
  /** Every accepted `POST …/messages`, oldest first. */
  sent(phoneNumberId?: string): ReceivedSend[];
  /** Every Graph and media request (not `/control`), with arrival time and answer status. */
  requests(): RequestRecord[];
  /** Resolves once at least `count` recorded requests match `filter`. */
  waitForRequests(count: number, filter?: (request: RequestRecord) => boolean, timeoutMs?: number): Promise<RequestRecord[]>;
  /** Messages the business marked read through the messages endpoint. */
  readMarks(): ReadMark[];
  /** A file the business uploaded (`POST …/media`), by the id the API gave it. */
  uploaded(mediaId: string): { phoneNumberId: string; mimeType: string; bytes: Buffer } | undefined;
  /** Resolves once at least `count` accepted sends match `filter`; rejects after `timeoutMs` (default 10 s). */
  waitForSent(count: number, filter?: (send: ReceivedSend) => boolean, timeoutMs?: number): Promise<ReceivedSend[]>;
  /** Most sends accepted inside any one second, for one number or all. */
  peakPerSecond(phoneNumberId?: string): number;

  // What the network does on its own.
  failNext(phoneNumberId: string, error: FailNext): void;
  /** How statuses are reported for following sends of the number (or only those to user `to`). */
  statusScript(phoneNumberId: string, script: StatusScript, options?: { to?: string }): void;
  /** A user writes to the business: opens that user's window and sends the messages webhook. Resolves with the wamid. */
  customerMessage(phoneNumberId: string, from: string, message: InboundMessage): Promise<string>;
  /** Several user messages in one webhook POST (one change, several `messages` and `contacts`). */
  customerMessages(phoneNumberId: string, messages: Array<{ from: string; message: InboundMessage }>): Promise<string[]>;
  /** The next `count` webhook events (messages, statuses, errors, any numbers) share one POST. */
  batchNext(count: number, windowMs?: number): void;
  /** An out-of-band error in `value.errors[]` (the API's webhook reference), e.g. 130429. */
  reportError(phoneNumberId: string, code: number): void;
  /** As if the user last wrote at `at` (default now); `closeWindow` as if never. */
  openWindow(phoneNumberId: string, user: string, at?: number): void;
  closeWindow(phoneNumberId: string, user: string): void;
  /** Free-form outside the window: answered 131047 (`sync`) or accepted and failed by webhook (`async`). */
  setWindowMode(mode: 'sync' | 'async'): void;

  // Webhook deliveries.
  /** Every finished attempt: exact bytes, signature, the receiver's status (null: no answer), attempt number. */
  deliveries(): DeliveryAttempt[];
  /** Deliveries not yet answered 200 (and not given up). */
  pendingWebhooks(): number;
  waitForDeliveries(count: number, filter?: (attempt: DeliveryAttempt) => boolean, timeoutMs?: number): Promise<DeliveryAttempt[]>;
  /** Resolves once no status is scheduled, no batch holds events and every delivery was answered 200 or given up. */
  waitForWebhooksIdle(timeoutMs?: number): Promise<void>;
  /** Posts a delivery's exact bytes again (a duplicate); returns the new delivery's id. */
  redeliver(deliveryId: number): number;
  /** Download URLs answered from now on point at another server (`null`: this one again), as a hostile or broken API might. */
  setMediaDownloadBase(url: string | null): void;

  close(): Promise<void>;
}
