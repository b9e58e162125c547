/**
 * The network's "nothing to show" for a picture: none (404), or one hidden from this account (401).
 * The library throws an error answer's code as the error's `data`, not as its HTTP-like status.
 */
export function isNoPicture(error: unknown): boolean {
  const boom = error as { data?: unknown; output?: { statusCode?: number } };
  return [401, 404].includes(typeof boom.data === 'number' ? boom.data : (boom.output?.statusCode ?? 0));
}
