import { DomainError, ERROR_CODES, type ErrorCode, Invalid, Unauthorized } from '../../domain/errors.js';
import { builder } from '../builder.js';
import { isCallerError } from '../graphql-error.js';

/**
 * Mutations report what was wrong with their input, or why they could not be done, as
 * `userErrors` in their payload (a client renders them beside the form). Failures of the caller
 * (credentials, rate limits, an outage) are GraphQL errors instead: nothing ran.
 */

const CODE_DESCRIPTIONS: Record<ErrorCode, string> = {
  unauthorized: 'No credentials, or a session that ended.',
  invalid_api_key: 'The API key is unknown or revoked.',
  forbidden: 'The caller may not do this (another tenant, or an operation that needs a signed-in user).',
  not_found: 'No such thing for this caller.',
  invalid_request: 'The input breaks a rule; `field` says where.',
  rate_limit_exceeded: 'Too many requests or messages; `retryAfter` says how long to wait.',
  instance_unavailable: 'The instance cannot do this in its current status.',
  instance_inactive: 'The instance is deactivated: it sends nothing and takes no action (edits, deletes, reads, presence, number checks, groups) until it is activated again.',
  instance_name_taken: 'Another instance of the tenant has this name.',
  instance_limit_reached: "The tenant's plan allows no more instances.",
  idempotency_conflict: 'The idempotency key was used with a different request.',
  service_unavailable: 'A service the gateway depends on is down; retry shortly.',
  media_expired: 'The network no longer has the media of this message (REST answers 410).',
  media_invalid: "The network's copy of the media does not match what its message vouched for (REST answers 502); nothing of it is served.",
  not_supported: "The instance's integration cannot do this (REST answers 422); the message names the integration and the capability. Nothing was stored.",
  edit_window_closed: 'The network allows edits for 15 minutes after a message is sent (REST answers 409).',
  message_not_sent: 'The message has not reached the network (still queued, or failed): there is nothing there to act on yet (REST answers 409).',
  message_not_yours: 'Only messages this instance sent can be edited or deleted for everyone (REST answers 409).',
  message_deleted: 'The message was deleted for everyone: it can no longer be edited (REST answers 409).',
  test_mode_mismatch: 'A test key may edit or delete only messages sent in test mode (REST answers 409); nothing reached the network.',
  network_error: 'The network refused or failed the action (REST answers 502); nothing changed.',
  media_link_invalid: 'A signed media link is malformed, altered or expired (REST answers 403); ask for the message again for a fresh one.',
  range_not_satisfiable: 'The requested byte range starts past the end of the file (REST answers 416).',
  proxy_unreachable: "An instance's proxy could not be used when its settings were saved (REST answers 422); nothing was changed.",
  not_on_network: 'A first message to a phone the network says has no account (REST answers 422); nothing was sent.',
};

export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: 'Why something failed: the same codes the REST API returns.',
  values: Object.fromEntries(ERROR_CODES.map((code) => [code, { value: code, description: CODE_DESCRIPTIONS[code] }])) as {
    [C in ErrorCode]: { value: C; description: string };
  },
});

export interface UserErrorShape {
  code: ErrorCode;
  field: string[] | null;
  message: string;
}

export const UserErrorType = builder.objectRef<UserErrorShape>('UserError').implement({
  description: 'Something wrong with a mutation\'s input, or why it could not be done.',
  fields: (t) => ({
    code: t.field({ type: ErrorCodeEnum, description: 'What kind of failure.', resolve: (e) => e.code }),
    field: t.exposeStringList('field', {
      nullable: true,
      description: 'The path of the input field at fault (["webhookEvents", "0"]); null when it is the input as a whole.',
    }),
    message: t.exposeString('message', { description: 'In words, for a person.' }),
  }),
});

/** What a mutation answers: its results, or none of them and why. */
export type Payload<T extends object> = Partial<T> & { userErrors: UserErrorShape[] };

function userErrorsOf(error: unknown, credentialsInInput: boolean): UserErrorShape[] {
  const inputsCredentials = credentialsInInput && error instanceof Unauthorized;
  if (!(error instanceof DomainError) || (isCallerError(error) && !inputsCredentials)) throw error;
  if (error instanceof Invalid) return error.problems.map((problem) => ({ code: error.code, field: problem.field, message: problem.message }));
  return [{ code: error.code, field: null, message: error.message }];
}

/**
 * Runs a mutation's work; an expected refusal becomes its userErrors, anything else stays an error.
 * `credentialsInInput`: the input carries credentials (sign in), so refusing them is the input's fault.
 */
export async function payloadOf<T extends object>(work: () => Promise<T>, options: { credentialsInInput?: boolean } = {}): Promise<Payload<T>> {
  try {
    return { ...(await work()), userErrors: [] };
  } catch (error) {
    return { userErrors: userErrorsOf(error, options.credentialsInInput ?? false) } as Payload<T>;
  }
}

/** What every mutation payload has; a payload type implements it and gets the field. */
export const MutationPayload = builder.interfaceRef<{ userErrors: UserErrorShape[] }>('MutationPayload').implement({
  description: 'The answer of a mutation: what it did, or in `userErrors` why it did nothing.',
  fields: (t) => ({
    userErrors: t.field({
      type: [UserErrorType],
      description: 'Why the mutation did nothing; empty when it succeeded. Validation lists every bad field at once.',
      resolve: (payload) => payload.userErrors,
    }),
  }),
});
