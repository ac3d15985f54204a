/**
 * The time the gateway itself spends on a relay request: the whole request's time minus the time it waited on the
 * upstream (for its answer's head, and for each piece of its body). Sent with every relay answer as
 * `X-Gateway-Overhead-Ms` and observed in `/metrics`, so operators can check the benchmark on their own traffic.
 */
export const OVERHEAD_HEADER = 'X-Gateway-Overhead-Ms';

/** Where the upstream exchange adds the time it waited (a request's tally is one). */
export interface WaitClock {
  upstreamMs: number;
}

/** The overhead as the header spells it: milliseconds with two decimals, never negative. */
export function overheadHeaderValue(startedAt: number, clock: WaitClock, now = performance.now()): string {
  return Math.max(0, now - startedAt - clock.upstreamMs).toFixed(2);
}
