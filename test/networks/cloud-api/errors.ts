// The error bodies the API answers, shaped as the notes document them (§1 "Error answer" and the code table),
// plus the Graph-level bodies every Graph endpoint shares (bad token, unknown object, unknown path).
import { fbtraceId } from './ids.js';

export const ERROR_CODES_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

interface Catalogued {
  title: string;
  details: string;
  /** HTTP status from the notes' table. */
  http: number;
  /** Only sent for paths below v16.0: the notes say `error_subcode` is "not included in v16.0+". */
  subcode?: number;
}

/** Titles and details as Meta's error-code page words them; HTTP statuses from the notes' table. */
export const CATALOG: Record<number, Catalogued> = {
  100: { title: 'Invalid parameter', details: 'Invalid parameter', http: 400 },
  4: { title: 'Application request limit reached', details: 'The app has reached its API call rate limit.', http: 429 },
  368: {
    title: 'Temporarily blocked for policies violations',
    details: 'The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy.',
    http: 403,
  },
  80007: { title: 'Rate limit issues', details: 'The WhatsApp Business Account has reached its rate limit.', http: 400 },
  130429: {
    title: 'Rate limit hit',
    details: 'Message failed to send because there were too many messages sent from this phone number in a short period of time',
    http: 400,
    subcode: 2494055,
  },
  131026: {
    title: 'Message undeliverable',
    details:
      'Unable to deliver message. Reasons can include: the recipient phone number is not a WhatsApp phone number; the recipient has not accepted the new Terms of Service; the recipient is using an old WhatsApp version.',
    http: 400,
  },
  131047: {
    title: 'Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    http: 400,
  },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    http: 400,
  },
  131051: { title: 'Message type unknown', details: 'Message type is currently not supported.', http: 400 },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details: 'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
    http: 400,
  },
};

export interface ApiError {
  status: number;
  body: { error: Record<string, unknown> };
}

/** `v15.0` → 15; anything unparsable counts as current. */
export function versionMajor(version: string | undefined): number {
  const match = /^v(\d+)\./.exec(version ?? '');
  return match ? Number(match[1]) : Number.POSITIVE_INFINITY;
}

/**
 * The messaging error body: `{error:{message:"(#code) title", type, code, error_data:{messaging_product, details}, fbtrace_id}}`,
 * keys in the order of the notes' example.
 */
export function messagingError(code: number, options: { details?: string; version?: string; status?: number } = {}): ApiError {
  if (code === 190) return expiredToken(Date.now() - 60_000);
  const entry = CATALOG[code] ?? { title: 'Generic error', details: 'An unknown error occurred', http: 400 };
  const error: Record<string, unknown> = {
    message: `(#${code}) ${entry.title}`,
    type: 'OAuthException',
    code,
    error_data: { messaging_product: 'whatsapp', details: options.details ?? entry.details },
  };
  if (entry.subcode !== undefined && versionMajor(options.version) < 16) error.error_subcode = entry.subcode;
  error.fbtrace_id = fbtraceId();
  return { status: options.status ?? entry.http, body: { error } };
}

/** A request the messaging validator refuses: code 100, the detail naming the parameter. */
export function invalidParameter(details: string, version?: string): ApiError {
  return messagingError(100, { details, version });
}

/**
 * A token that does not parse or is not known. Graph answers this without the `(#190)` prefix and without
 * `error_data` (the body quoted in Neurotech-HQ/heyoo#13); HTTP 401 per the notes.
 */
export function invalidToken(): ApiError {
  return {
    status: 401,
    body: { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: fbtraceId() } },
  };
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
function graphTime(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${pad(d.getUTCFullYear() % 100)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/** An expired token: code 190 with Graph's "session has expired" subcode 463 (Graph "Handling Errors" guide); HTTP 401. */
export function expiredToken(expiredAt: number): ApiError {
  return {
    status: 401,
    body: {
      error: {
        message: `Error validating access token: Session has expired on ${graphTime(expiredAt)}. The current time is ${graphTime(Date.now())}.`,
        type: 'OAuthException',
        code: 190,
        error_subcode: 463,
        fbtrace_id: fbtraceId(),
      },
    },
  };
}

/**
 * An id no object has, or one the token may not use: Graph's `GraphMethodException` 100/33, HTTP 400
 * (the body quoted in sajuthankappan/whatsapp-cloud-api-rs#3 for a wrong phone-number-id).
 */
export function unknownObject(method: string, id: string): ApiError {
  return {
    status: 400,
    body: {
      error: {
        message: `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        fbtrace_id: fbtraceId(),
      },
    },
  };
}

/** A path Graph does not know (wrong version, unknown edge). */
export function unknownPath(components: string): ApiError {
  return {
    status: 400,
    body: { error: { message: `Unknown path components: ${components}`, type: 'OAuthException', code: 2500, fbtrace_id: fbtraceId() } },
  };
}

/**
 * Graph repeats the error in `WWW-Authenticate` (seen in real answers: `OAuth "Facebook Platform" "invalid_request" "(#100) …"`).
 * Header values must stay Latin-1, so anything else is dropped.
 */
export function wwwAuthenticate(error: ApiError): string {
  const message = String(error.body.error.message ?? '').replace(/[^\x20-\x7e]/g, '').replace(/"/g, "'");
  return `OAuth "Facebook Platform" "${error.status === 401 ? 'invalid_token' : 'invalid_request'}" "${message}"`;
}

/** The `errors[]` item of a `failed` status or of `value.errors` (the API's webhook reference, status reference). */
export function webhookError(code: number, details?: string) {
  const entry = CATALOG[code] ?? { title: 'Generic error', details: 'An unknown error occurred', http: 400 };
  return { code, title: entry.title, message: entry.title, error_data: { details: details ?? entry.details }, href: ERROR_CODES_HREF };
}
