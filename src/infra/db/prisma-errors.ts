const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs; a text that is not a UUID cannot name a row, and must not reach a uuid column. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** A unique constraint refused the write (another request got there first). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

/**
 * PostgreSQL gave up on the statement to break a lock cycle with another transaction (deadlock,
 * 40P01) or a serialization conflict (40001): nothing was written, and trying again is the remedy.
 */
export function isLockConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, meta, message } = error as { code?: unknown; meta?: { code?: unknown }; message?: unknown };
  const sqlState = typeof meta?.code === 'string' ? meta.code : typeof code === 'string' ? code : '';
  return sqlState === '40P01' || sqlState === '40001' || (typeof message === 'string' && /Code: `40(P01|001)`/.test(message));
}

/** A foreign key refused the write: the row it points to is gone (deleted by another transaction). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, meta } = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  // Prisma's code, the driver adapter's, or the SQLSTATE of a statement run on the driver itself.
  return code === 'P2003' || code === '23503' || meta?.driverAdapterError?.cause?.originalCode === '23503';
}
