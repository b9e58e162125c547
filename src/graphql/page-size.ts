import { Invalid } from '../domain/errors.js';

/** The most items one page of any list holds; asked for more, a list refuses rather than cuts. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** Refuses `first`/`last` beyond the maximum (the connection helpers would cut the page silently). */
export function checkPageSize(args: { first?: number | null; last?: number | null }): void {
  for (const key of ['first', 'last'] as const) {
    const size = args[key];
    if (size != null && size > MAX_PAGE_SIZE) throw Invalid.at(key, `must be at most ${MAX_PAGE_SIZE}`);
  }
}
