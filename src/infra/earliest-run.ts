/**
 * One pending run of `work`, at the earliest time asked for: a background loop that is told of work
 * (run soon) and also keeps its own rhythm (run later) plans both here, and a later time never
 * postpones an earlier one. The timer does not keep the process alive.
 */
export function earliestRun(work: () => void) {
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  return {
    /** Runs `work` in `ms`, unless a run is already planned sooner. */
    plan(ms: number) {
      const at = Date.now() + ms;
      if (at >= dueAt) return;
      clearTimeout(timer);
      dueAt = at;
      timer = setTimeout(() => {
        dueAt = Infinity;
        work();
      }, ms);
      timer.unref();
    },
    /** Milliseconds until the planned run; Infinity when none is planned. */
    dueInMs: () => dueAt - Date.now(),
    cancel() {
      clearTimeout(timer);
      dueAt = Infinity;
    },
  };
}
