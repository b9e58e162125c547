import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/**
 * How often the lag sampler wakes the process. Ten wake-ups a second cost an idle gateway 0.09 % of
 * a core (docs/benchmarks.md), a third of its idle budget; one a second costs 0.01 %.
 */
export const LAG_SAMPLE_MS = 1000;

/** The gauges prom-client's default metrics fill from their own sampler, named without the prefix. */
const STATISTICS = ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'] as const;
type Statistic = (typeof STATISTICS)[number];

/**
 * Event-loop lag gauges in place of prom-client's, which read Node's sampling period plus the lag (0.1 s
 * on an idle gateway sampled ten times a second); these take the period out, so an alert keeps its
 * meaning (docs/operating.md, "Metrics"). `nodejs_eventloop_lag_seconds` (at each scrape) stays theirs.
 */
export function replaceEventLoopLagGauges(registry: Registry, prefix: string) {
  const name = (statistic: Statistic) => `${prefix}nodejs_eventloop_lag_${statistic}_seconds`;
  for (const statistic of STATISTICS) registry.removeSingleMetric(name(statistic));

  const sampler = monitorEventLoopDelay({ resolution: LAG_SAMPLE_MS });
  sampler.enable();
  const lag = (nanoseconds: number) => Math.max(0, nanoseconds / 1e9 - LAG_SAMPLE_MS / 1000);
  const read: Record<Statistic, () => number> = {
    min: () => lag(sampler.min),
    max: () => lag(sampler.max),
    mean: () => lag(sampler.mean),
    stddev: () => sampler.stddev / 1e9,
    p50: () => lag(sampler.percentile(50)),
    p90: () => lag(sampler.percentile(90)),
    p99: () => lag(sampler.percentile(99)),
  };
  const described: Record<Statistic, string> = {
    min: 'The smallest',
    max: 'The largest',
    mean: 'The mean',
    stddev: 'The standard deviation of the',
    p50: 'The 50th percentile of the',
    p90: 'The 90th percentile of the',
    p99: 'The 99th percentile of the',
  };
  const gauges = {} as Record<Statistic, Gauge>;
  for (const statistic of STATISTICS) {
    gauges[statistic] = new Gauge({
      name: name(statistic),
      help: `${described[statistic]} event loop lag since the last scrape, sampled every ${LAG_SAMPLE_MS} ms.`,
      registers: [registry],
      // The first gauge of a scrape sets them all from one reading, then starts the next window (Node
      // does not record the first tick after a reset, so each window misses its first second, as
      // prom-client's do); a window with no sample yet keeps the last values.
      ...(statistic === 'min' && {
        collect() {
          if (sampler.count === 0) return;
          for (const each of STATISTICS) gauges[each].set(read[each]());
          sampler.reset();
        },
      }),
    });
  }
}
