// The id breaks ties in creation time so cursors are stable.
/** Messages and deliveries. */
export const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
/** Instances, as the REST lists show them. */
export const oldestFirst = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
