/** An answer of the API that is not a success, or no answer at all. */
export interface ApiFailure {
  /** The HTTP status; null when no answer came (refused, reset, timed out). */
  status: number | null;
  /** The API's error code (`error.code`), when the body carried one. */
  code: number | null;
  message: string;
}

/** What the engine does about a failure (the API's reference: branch on the code, not the HTTP status). */
export type FailureAction =
  /** Keep the message queued and try again later: throughput or pair rate reached, an outage. */
  | 'retry'
  /** The token no longer works: the instance is disconnected with that reason; the queue waits for a new one. */
  | 'token'
  /** The API refused this message for good (invalid parameter, undeliverable, window closed…). */
  | 'fail';

/** Limits that pass: the number's throughput, the pair rate, the app's and the account's, a throughput upgrade under way. */
const RETRY_CODES = new Set([130429, 131056, 4, 80007, 131057, 133016, 1, 2]);

export function actionOf(failure: ApiFailure): FailureAction {
  if (failure.code === 190 || (failure.code === null && failure.status === 401)) return 'token';
  if (failure.code !== null && RETRY_CODES.has(failure.code)) return 'retry';
  if (failure.status === null || failure.status >= 500 || failure.status === 429) return 'retry';
  return 'fail';
}

/** The failure in the message's `error`: the API's code, and its details (or its message). */
export function messageError(failure: ApiFailure): { code: string; message: string } {
  return { code: failure.code === null ? `http_${failure.status ?? 'none'}` : String(failure.code), message: failure.message };
}

/** Reads Graph's error body `{error: {code, message, error_data: {details}}}`; anything else keeps the HTTP status. */
export function failureOf(status: number, body: unknown): ApiFailure {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error !== 'object' || error === null) return { status, code: null, message: `the API answered HTTP ${status}` };
  const { code, message, error_data: data } = error as { code?: unknown; message?: unknown; error_data?: { details?: unknown } };
  const details = typeof data?.details === 'string' ? data.details : undefined;
  return {
    status,
    code: typeof code === 'number' && Number.isInteger(code) ? code : null,
    // The title without its `(#code)` prefix (the code travels apart), else the details.
    message: ((typeof message === 'string' && message.replace(/^\(#\d+\)\s*/, '')) || details || `the API answered HTTP ${status}`).slice(0, 500),
  };
}
