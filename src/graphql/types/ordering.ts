/** Lists read newest first; the id breaks ties so cursors are stable. */
export const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
