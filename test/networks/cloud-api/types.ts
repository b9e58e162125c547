// Types shared by the local Cloud API server's parts and by the tests that drive it.

/** Status values the network reports for a sent message (the API's webhook reference, "Statuses"). */
export type StatusName = 'sent' | 'delivered' | 'read' | 'played' | 'failed';

export interface StatusStep {
  status: StatusName;
  /** Wait before this step, counted from the previous one (default: the server's `statusDelayMs`). */
  delayMs?: number;
  /** For `failed`: the error code carried in `errors[]` (default 131026). */
  code?: number;
  /** Force `pricing` on or off for this step; by default it rides on the first `sent` and the first `delivered` (or `read` when the script has no `delivered`). */
  pricing?: boolean;
}

/** How statuses are reported for each following send, in order: `['sent','delivered','read']` is the default. */
export type StatusScript = Array<StatusName | StatusStep>;

/** Error codes the server can be told to answer the next sends with. */
export type FailCode = 130429 | 131056 | 131047 | 131026 | 100 | 190 | 368 | 4 | 80007 | 131049;

export interface FailNext {
  code: FailCode;
  /** How many following sends get it (default 1). */
  times?: number;
  /** HTTP status to answer with instead of the notes' table (e.g. 429 for 130429, which one third-party table claims). */
  status?: number;
}

export interface AddNumber {
  phoneNumberId: string;
  /** Digits only, as webhooks carry it in `metadata.display_phone_number`. */
  displayPhoneNumber: string;
  accessToken: string;
  appSecret: string;
  businessAccountId?: string;
  verifiedName?: string;
  /** Throughput limit for this number (messages per second); overrides the server's `mpsLimit`. */
  mpsLimit?: number;
}

/** One accepted `POST …/messages`. */
export interface ReceivedSend {
  wamid: string;
  phoneNumberId: string;
  /** `to` exactly as the request gave it. */
  to: string;
  /** `to` reduced to digits, as answered in `contacts[].wa_id`. */
  waId: string;
  type: string;
  /** The parsed request body. */
  body: Record<string, unknown>;
  /** The request body as received. */
  raw: string;
  /** Receive time, ms since epoch. */
  at: number;
  /** The path version the send used, e.g. `v23.0`. */
  version: string;
}

export interface RequestRecord {
  method: string;
  path: string;
  /** Arrival time, ms since epoch. */
  at: number;
  status: number;
  phoneNumberId?: string;
}

/** One attempt to deliver one webhook POST. */
export interface DeliveryAttempt {
  deliveryId: number;
  attempt: number;
  url: string;
  /** The exact bytes sent (ASCII only: non-ASCII is escaped). */
  body: string;
  /** The `X-Hub-Signature-256` header value, `sha256=<hex>`. */
  signature: string;
  /** The receiver's HTTP status; null when the connection failed or timed out (see `error`). */
  status: number | null;
  error?: string;
  at: number;
}

interface InboundCommon {
  /** The sender's profile name, carried in `contacts[].profile.name` (default "Customer <digits>"). */
  profileName?: string;
  /** Makes the message a reply: the quoted wamid, and optionally who sent it (default the business number). */
  replyTo?: string | { id: string; from?: string };
}

type Bytes = Uint8Array;

/** What a user can send to the business (the API's webhook reference, `messages[]` items). A bare string is a text message. */
export type InboundMessage =
  | string
  | (InboundCommon &
      (
        | { type: 'text'; text: string }
        | { type: 'image' | 'video'; data: Bytes; mimeType?: string; caption?: string }
        | { type: 'sticker'; data: Bytes; mimeType?: string; animated?: boolean }
        | { type: 'audio'; data: Bytes; mimeType?: string; voice?: boolean }
        | { type: 'document'; data: Bytes; mimeType?: string; filename: string; caption?: string }
        | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string; url?: string }
        | { type: 'contacts'; contacts: InboundContactCard[] }
        | { type: 'reaction'; messageId: string; emoji: string }
        | { type: 'interactive'; buttonReply?: { id: string; title: string }; listReply?: { id: string; title: string; description?: string } }
        | { type: 'button'; text: string; payload: string }
        | { type: 'unsupported' }
      ));

export interface InboundContactCard {
  name: { formatted_name: string; first_name?: string; last_name?: string };
  phones?: Array<{ phone: string; wa_id?: string; type?: string }>;
  emails?: Array<{ email: string; type?: string }>;
}

export interface CloudApiOptions {
  host?: string;
  port?: number;
  /** The only path version accepted (e.g. `v23.0`); by default any `vNN.N`. */
  version?: string;
  logger?: import('pino').Logger;
  /** Enforced messages per second per number (sends and inbound messages count, the API's throughput limits); none by default. */
  mpsLimit?: number;
  /** Enforced (business, user) pair rate: `burst` sends, then one per `perMs` (the API's throughput limits: about 45, then 1 per 6 s); off by default. */
  pairLimit?: { burst: number; perMs: number };
  /** Length of the customer service window (default 24 h). */
  windowMs?: number;
  /** Free-form outside the window: `sync` answers 131047 at once (default); `async` accepts and reports `failed` 131047 by webhook. */
  windowMode?: 'sync' | 'async';
  /** Lifetime of media download URLs (default 5 minutes). */
  mediaUrlTtlMs?: number;
  /** Answer `file_size` as a number instead of the string the notes' example shows. */
  mediaFileSizeAsNumber?: boolean;
  /** Put a download `url` in inbound media webhooks (Meta's gradual rollout from 2025-11-12); off by default. */
  mediaUrlInWebhook?: boolean;
  /** Delays between webhook attempts; the last one repeats (default 200 ms, 1 s, 5 s, 15 s, 60 s). */
  webhookRetryDelaysMs?: number[];
  /** Give up after this many attempts (default: never, like the network's 7 days). */
  webhookMaxAttempts?: number;
  /** How long one attempt may take (default 10 s). */
  webhookTimeoutMs?: number;
  /** First attempts in flight at once; 1 (default) keeps deliveries in the order the events happened. */
  webhookConcurrency?: number;
  /** Default delay between scripted status steps (default 25 ms). */
  statusDelayMs?: number;
  /** Also escape `/` as `\/` in webhook bodies. Off by default: the notes only document the `\uXXXX` escapes. */
  escapeSlashes?: boolean;
}
