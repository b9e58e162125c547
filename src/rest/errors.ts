import { DomainError, RangeNotSatisfiable, RateLimited, Unavailable, type ErrorCode } from '../domain/errors.js';

/** Transport-level codes the domain never raises. */
export type HttpOnlyCode = 'method_not_allowed' | 'payload_too_large' | 'unsupported_media_type' | 'request_timeout' | 'server_error';

/** The one table from error code to HTTP status. */
const STATUS: Record<ErrorCode | HttpOnlyCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  forbidden: 403,
  media_link_invalid: 403,
  range_not_satisfiable: 416,
  instance_limit_reached: 403,
  not_found: 404,
  media_expired: 410,
  media_invalid: 502,
  network_error: 502,
  not_supported: 422,
  proxy_unreachable: 422,
  not_on_network: 422,
  edit_window_closed: 409,
  message_not_sent: 409,
  message_not_yours: 409,
  message_deleted: 409,
  test_mode_mismatch: 409,
  method_not_allowed: 405,
  instance_unavailable: 409,
  instance_inactive: 409,
  instance_name_taken: 409,
  idempotency_conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 400,
  rate_limit_exceeded: 429,
  server_error: 500,
  service_unavailable: 503,
};

export interface ErrorResponse {
  status: number;
  body: { success: false; error: { code: string; message: string; retryAfter?: number } };
  headers?: Record<string, string>;
}

export function errorResponse(code: ErrorCode | HttpOnlyCode, message: string): ErrorResponse {
  return { status: STATUS[code], body: { success: false, error: { code, message } } };
}

export function domainErrorResponse(error: DomainError): ErrorResponse {
  const response = errorResponse(error.code, error.message);
  if (error instanceof RateLimited) {
    response.body.error.retryAfter = error.retryAfter;
    response.headers = { 'Retry-After': String(error.retryAfter) };
    if (error.exceeded) {
      // The quota refused it: the headers describe the quota, not the request window.
      response.headers['X-RateLimit-Limit'] = String(error.exceeded.limit);
      response.headers['X-RateLimit-Remaining'] = String(error.exceeded.remaining);
      response.headers['X-RateLimit-Reset'] = String(Math.ceil(error.exceeded.resetAt.getTime() / 1000));
    }
  }
  if (error instanceof Unavailable) response.headers = { 'Retry-After': String(error.retryAfter) };
  if (error instanceof RangeNotSatisfiable) response.headers = { 'Content-Range': `bytes */${error.size}` };
  return response;
}

/** Errors thrown by Koa, raw-body and friends carry an HTTP status; map the ones clients cause. */
export function httpErrorResponse(status: number, message: string, limitBytes?: number): ErrorResponse | undefined {
  if (status === 413) {
    // raw-body tells the limit it enforced: REST bodies and GraphQL bodies have different ones.
    const limit = limitBytes === undefined ? 'allowed' : `${limitBytes} bytes`;
    return errorResponse('payload_too_large', `The request body is larger than ${limit}.`);
  }
  if (status === 405) return errorResponse('method_not_allowed', message);
  if (status === 404) return errorResponse('not_found', message);
  if (status >= 400 && status < 500) return errorResponse('invalid_request', message);
  return undefined;
}
