/**
 * A refusal the network gives to whoever drives it (a test or the control API). `status` is the HTTP
 * status the control API answers with, so bad input stays a 4xx there and never becomes a 500.
 */
export class ChatNetworkError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 408 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ChatNetworkError';
  }
}

export const badRequest = (code: string, message: string) => new ChatNetworkError(400, code, message);
export const notFound = (code: string, message: string) => new ChatNetworkError(404, code, message);
export const forbidden = (code: string, message: string) => new ChatNetworkError(403, code, message);
