const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs; a text that is not a UUID cannot name a row, and must not reach a uuid column. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** A unique constraint refused the write (another request got there first). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
