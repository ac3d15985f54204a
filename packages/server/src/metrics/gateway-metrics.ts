import type { AppContext } from '../context.js';
import { startEventLoopMonitor, writeEventLoopDelay } from './event-loop.js';
import { RelayMetrics } from './relay-metrics.js';
import { writeStateMetrics } from './state-metrics.js';

/**
 * This node's metrics: the relay's counters (kept per context, so a test server starts from zero) and the state
 * read at scrape time. prom-client (design.md) is not a dependency of this checkout; the exposition format is small
 * enough to write here, and the hot path then only adds to numbers it already holds.
 */
export class GatewayMetrics {
  readonly relay = new RelayMetrics();

  constructor() {
    startEventLoopMonitor();
  }

  /** The whole exposition text for `GET /metrics`. */
  render(ctx: AppContext): string {
    const out: string[] = [];
    this.relay.render(out);
    writeStateMetrics(out, ctx);
    writeEventLoopDelay(out);
    out.push('');
    return out.join('\n');
  }
}
