/**
 * Expected failures. `code` is the stable, public identifier (REST error code, GraphQL error code);
 * the transports decide how to show it, the domain only decides which one it is.
 */
export const ERROR_CODES = [
  'unauthorized',
  'invalid_api_key',
  'forbidden',
  'not_found',
  'invalid_request',
  'rate_limit_exceeded',
  'instance_unavailable',
  'instance_inactive',
  'instance_name_taken',
  'instance_limit_reached',
  'idempotency_conflict',
  'service_unavailable',
  'media_expired',
  'media_invalid',
  'not_supported',
  'edit_window_closed',
  'message_not_sent',
  'message_not_yours',
  'message_deleted',
  'test_mode_mismatch',
  'network_error',
  'media_link_invalid',
  'range_not_satisfiable',
  'proxy_unreachable',
  'not_on_network',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class Unauthorized extends DomainError {
  constructor(message = 'Authentication required: send an API key or a session cookie.') {
    super('unauthorized', message);
  }
}

export class InvalidApiKey extends DomainError {
  constructor(message = 'The API key is invalid or has been revoked.') {
    super('invalid_api_key', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'You do not have permission for this resource.') {
    super('forbidden', message);
  }
}

export class NotFound extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} not found.`);
  }
}

/** One thing wrong with an input: where (a path into the input, or null for the whole of it) and which rule. */
export interface Problem {
  field: string[] | null;
  message: string;
}

/** Bad input. The message is one "field: rule" per problem (REST); `problems` keeps them apart (GraphQL userErrors). */
export class Invalid extends DomainError {
  readonly problems: Problem[];
  constructor(message: string, problems?: Problem[]) {
    super('invalid_request', message);
    this.problems = problems ?? [{ field: null, message }];
  }

  /** A rule broken by one field, at `path` ("webhookEvents.0"). */
  static at(path: string, rule: string): Invalid {
    return Invalid.of([{ field: path.split('.'), message: rule }]);
  }

  /** Several problems as one refusal. */
  static of(problems: Problem[]): Invalid {
    return new Invalid(problems.map(describeProblem).join('; '), problems);
  }
}

function describeProblem(problem: Problem): string {
  return problem.field?.length ? `${problem.field.join('.')}: ${problem.message}` : problem.message;
}

export class Conflict extends DomainError {
  constructor(code: Extract<ErrorCode, `instance_${string}` | `message_${string}` | 'idempotency_conflict' | 'edit_window_closed' | 'test_mode_mismatch'>, message: string) {
    super(code, message);
  }
}

/** The limit that refused a request, when it is not the per-request window the headers already describe. */
export interface ExceededLimit {
  limit: number;
  remaining: number;
  resetAt: Date;
}

export class RateLimited extends DomainError {
  constructor(
    readonly retryAfter: number,
    message = `Too many requests. Retry after ${retryAfter} seconds.`,
    readonly exceeded?: ExceededLimit,
  ) {
    super('rate_limit_exceeded', message);
  }
}

/** A dependency (the database) did not answer; the request may be retried after `retryAfter` seconds. */
export class Unavailable extends DomainError {
  readonly retryAfter = UNAVAILABLE_RETRY_AFTER_S;
  constructor(message = 'A service the gateway depends on is unavailable. Retry shortly.', options?: { cause?: unknown }) {
    super('service_unavailable', message, options);
  }
}

/** How long a client is told to wait before retrying after a 503. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** The instance's engine lacks a capability the request needs (docs/messaging.md): refused before anything is stored. */
export class NotSupported extends DomainError {
  constructor(
    readonly integration: string,
    readonly capability: string,
  ) {
    super('not_supported', `${integration} does not support ${capability}.`);
  }
}

/** The network refused or failed an action the owner tried at once (an edit, a read mark, a number check). */
export class NetworkError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('network_error', message, options);
  }
}

/** A signed media link that is malformed, tampered with or past its expiry (docs/media.md). */
export class MediaLinkInvalid extends DomainError {
  constructor(message = 'This media link is not valid: it is malformed, altered or expired. Ask for the message again for a fresh link.') {
    super('media_link_invalid', message);
  }
}

/** A Range that starts past the file's end (RFC 9110 §15.5.17); `size` is the file's length. */
export class RangeNotSatisfiable extends DomainError {
  constructor(readonly size: number) {
    super('range_not_satisfiable', `The requested range is not within the file's ${size} bytes.`);
  }
}

/** A proxy given in an instance's settings could not be used (docs/settings.md, "Proxy"). */
export class ProxyUnreachable extends DomainError {
  constructor(message: string) {
    super('proxy_unreachable', message);
  }
}

/** A first message to a phone the network says has no account (docs/settings.md, "Sending"). */
export class NotOnNetwork extends DomainError {
  constructor(phone: string) {
    super('not_on_network', `${phone} has no account on the network; nothing was sent.`);
  }
}
