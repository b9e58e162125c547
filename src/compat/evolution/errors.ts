import { DomainError, Invalid, RateLimited } from '../../domain/errors.js';

/** Evolution API's error body (docs/evolution.md, "Errors"): its status, the status's name, and the messages. */
export interface EvolutionError {
  status: number;
  headers: Record<string, string>;
  body: { status: number; error: string; response: { message: string[] } };
}

const NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The domain's codes by the status Evolution's clients read; the codes are the ones docs/rest.md lists. */
const STATUS_OF: Record<string, number> = {
  invalid_request: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  forbidden: 403,
  instance_limit_reached: 403,
  media_link_invalid: 403,
  not_found: 404,
  media_expired: 410,
  not_supported: 422,
  proxy_unreachable: 422,
  not_on_network: 422,
  idempotency_conflict: 409,
  rate_limit_exceeded: 429,
  network_error: 502,
  media_invalid: 502,
  service_unavailable: 503,
};

export function evolutionError(status: number, messages: string[], headers: Record<string, string> = {}): EvolutionError {
  return { status, headers, body: { status, error: NAMES[status] ?? 'Error', response: { message: messages } } };
}

/** Renames the domain's field names to the ones the Evolution body used ("to" → "number"). */
export type FieldNames = Record<string, string>;

function renamed(path: string[], names: FieldNames): string {
  const whole = path.join('.');
  for (let cut = path.length; cut > 0; cut--) {
    const head = path.slice(0, cut).join('.');
    if (names[head] !== undefined) return [names[head], ...path.slice(cut)].filter(Boolean).join('.');
  }
  return whole;
}

/** Any failure of a handler as Evolution answers it; `names` maps the domain's fields to the request's. */
export function toEvolutionError(error: unknown, names: FieldNames = {}): EvolutionError {
  if (error instanceof Invalid) {
    return evolutionError(400, error.problems.map((problem) => (problem.field?.length ? `${renamed(problem.field, names)}: ${problem.message}` : problem.message)));
  }
  if (error instanceof DomainError) {
    const headers: Record<string, string> = error instanceof RateLimited ? { 'Retry-After': String(error.retryAfter) } : {};
    // Conflicts (a message not sent yet, an instance not connected) are what Evolution answers 400 to.
    return evolutionError(STATUS_OF[error.code] ?? 400, [error.message], headers);
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number' && (error as { expose?: unknown }).expose === true) return evolutionError(status, [(error as Error).message]);
  return evolutionError(500, ['Internal server error.']);
}
