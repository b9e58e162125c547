/**
 * A secret the gateway answers once (an instance's webhook secret in its create answer), handed from
 * the page that created it to the page that shows it, in memory only: never stored, gone on reload.
 */
const waiting = new Map<string, string>();

export function keepShownOnce(id: string, secret: string) {
  waiting.set(id, secret);
}

/** The secret waiting for this id, removed as it is read. */
export function takeShownOnce(id: string): string | null {
  const secret = waiting.get(id) ?? null;
  waiting.delete(id);
  return secret;
}
