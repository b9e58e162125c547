/** A search as an ILIKE pattern: `%` and `_` in it are letters, not wildcards. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
