import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LAG_SAMPLE_MS, replaceEventLoopLagGauges } from '../../src/infra/event-loop-lag.js';
import { eventually } from '../factories/sandbox.js';

/** The gauge's value in one scrape of the registry (a gauge never set reads 0). */
async function gauge(registry: Registry, name: string): Promise<number | undefined> {
  const line = (await registry.metrics()).split('\n').find((each) => each.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('event-loop lag gauges', () => {
  it('replace prom-client\'s under the same names, once each', async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'x_', eventLoopMonitoringPrecision: 2 ** 31 - 1 });
    replaceEventLoopLagGauges(registry, 'x_');
    const text = await registry.metrics();
    for (const statistic of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) {
      expect(text.split('\n').filter((line) => line.startsWith(`# HELP x_nodejs_eventloop_lag_${statistic}_seconds `))).toEqual([
        expect.stringContaining(`sampled every ${LAG_SAMPLE_MS} ms`),
      ]);
    }
    // The lag measured at each scrape stays prom-client's.
    expect(text).toContain('# HELP x_nodejs_eventloop_lag_seconds Lag of event loop in seconds.');
  });

  it('read the lag without the sampling period, and see a stall', async () => {
    const registry = new Registry();
    replaceEventLoopLagGauges(registry, 'x_');
    // Node's own sampler, as prom-client uses it, started after the gauges' one: once it has
    // recorded, so has theirs (a sampler does not record its first tick).
    const raw = monitorEventLoopDelay({ resolution: LAG_SAMPLE_MS });
    raw.enable();
    await eventually(async () => raw.count, (count) => count >= 2, 10_000);
    raw.disable();
    // Node records the time between ticks, the period included; the gauges take it out.
    expect(raw.percentile(50) / 1e9).toBeGreaterThan(0.99 * (LAG_SAMPLE_MS / 1000));
    expect(await gauge(registry, 'x_nodejs_eventloop_lag_p50_seconds')).toBeLessThan(LAG_SAMPLE_MS / 1000 / 2);

    // Holds the loop past a tick at each look. A scrape resets the sampler, and Node does not record
    // the first tick after a reset (it has no tick before it to measure from), so a hold may need a
    // second look.
    const holdThenRead = () => {
      const held = Date.now();
      while (Date.now() - held < 1.6 * LAG_SAMPLE_MS);
      return gauge(registry, 'x_nodejs_eventloop_lag_max_seconds');
    };
    const max = await eventually(holdThenRead, (value) => value! > 0.3, 15_000);
    expect(max).toBeGreaterThan(0.3);
  }, 30_000);
});
