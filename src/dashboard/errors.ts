import type { CombinedError } from '@urql/core';

export interface UserError {
  code: string;
  field?: string[] | null;
  message: string;
}

/** A failed request in words: the gateway's own message, or that it could not be reached. */
export function describeError(error: CombinedError | undefined): string | null {
  if (!error) return null;
  const [first] = error.graphQLErrors;
  if (first) {
    const retryAfter = first.extensions?.retryAfter;
    return typeof retryAfter === 'number' ? `${first.message} (try again in ${retryAfter} s)` : first.message;
  }
  return 'The gateway cannot be reached. Check your connection and try again.';
}

/** A mutation's userErrors in words, each with the field it is about. */
export function describeUserErrors(errors: UserError[] | undefined): string[] {
  return (errors ?? []).map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message));
}

/** The code of the first GraphQL error (unauthorized, …), if any. */
export function errorCode(error: CombinedError | undefined): string | undefined {
  const code = error?.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Everything that went wrong with a mutation, in words: the request's error and the payload's userErrors. */
export function problemsOf(error: CombinedError | undefined, userErrors?: UserError[]): string[] {
  return [describeError(error), ...describeUserErrors(userErrors)].filter((m): m is string => Boolean(m));
}
