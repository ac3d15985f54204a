import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFamily } from './exposition.js';

const NS_PER_SECOND = 1e9;

/** One sampler per process (the event loop is the process's), started with the first context. Its timer is unref'd. */
let monitor: IntervalHistogram | null = null;

export function startEventLoopMonitor(): void {
  if (monitor) return;
  monitor = monitorEventLoopDelay({ resolution: 10 });
  monitor.enable();
}

/**
 * Event-loop delay since the previous scrape, under prom-client's names so existing Node.js dashboards read them.
 * The sampler is reset after each read: a maximum since the start would say nothing about the last minute.
 */
export function writeEventLoopDelay(out: string[]): void {
  if (!monitor || monitor.count === 0) return;
  const stats: Array<[string, string, number]> = [
    ['min', 'Smallest', monitor.min],
    ['max', 'Largest', monitor.max],
    ['mean', 'Mean', monitor.mean],
    ['stddev', 'Standard deviation of the', monitor.stddev],
    ['p50', 'Median', monitor.percentile(50)],
    ['p90', '90th percentile', monitor.percentile(90)],
    ['p99', '99th percentile', monitor.percentile(99)],
  ];
  for (const [suffix, what, nanoseconds] of stats) {
    writeFamily(
      out,
      `nodejs_eventloop_lag_${suffix}_seconds`,
      'gauge',
      `${what} event-loop delay since the previous scrape`,
      [['', nanoseconds / NS_PER_SECOND]],
    );
  }
  monitor.reset();
}
