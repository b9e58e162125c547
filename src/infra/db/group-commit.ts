/** One item's own outcome inside a group: its result, or the error that is its alone. */
export type Outcome<Out> = { ok: Out } | { error: unknown };

export interface GroupCommit<In, Out> {
  /** Resolves with this item's result once the group it went into is written. */
  add(item: In): Promise<Out>;
}

/**
 * Group commit: what arrives while earlier groups are written goes in the next group, so under load the
 * database sees one statement for many callers, and idle no added wait (a group starts on the next turn
 * of the event loop). Each caller gets its own outcome; a group that fails whole fails every caller.
 */
export function groupCommit<In, Out>(
  write: (items: In[]) => Promise<Array<Outcome<Out>>>,
  options: {
    maxItems: number;
    maxConcurrent: number;
    /**
     * A group failure that every waiting item would meet too (the database is not answering): the
     * waiting items fail with it at once instead of each waiting out its own timeout.
     */
    failsEveryone?: (error: unknown) => boolean;
    /**
     * How long the first item of an idle group waits for company. 0: the next turn of the event
     * loop. A database that runs one statement at a time (PGlite) may want a few milliseconds:
     * fewer, larger groups.
     */
    windowMs?: number;
  },
): GroupCommit<In, Out> {
  const waiting: Array<{ item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> = [];
  let writing = 0;
  let scheduled = false;

  function flush() {
    scheduled = false;
    while (writing < options.maxConcurrent && waiting.length > 0) {
      const group = waiting.splice(0, options.maxItems);
      writing++;
      write(group.map((w) => w.item))
        .then(
          (outcomes) =>
            group.forEach((w, i) => {
              const outcome = outcomes[i]!;
              if ('ok' in outcome) w.resolve(outcome.ok);
              else w.reject(outcome.error);
            }),
          (error: unknown) => {
            group.forEach((w) => w.reject(error));
            if (options.failsEveryone?.(error)) for (const w of waiting.splice(0)) w.reject(error);
          },
        )
        .finally(() => {
          writing--;
          flush();
        });
    }
  }

  return {
    add(item) {
      return new Promise<Out>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          if (options.windowMs) setTimeout(flush, options.windowMs);
          else setImmediate(flush);
        }
      });
    },
  };
}
