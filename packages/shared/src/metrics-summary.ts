/**
 * This node's relay figures since it started, for root's dashboard (`GET /api/metrics/summary`): the same numbers
 * `GET /metrics` exposes to Prometheus, added up. Durations in seconds; null when nothing was measured yet.
 */
export interface MetricsSummary {
  node: string;
  started_at: number;
  requests: { success: number; error: number; cancelled: number };
  retries: number;
  upstream_errors: number;
  latency: { p50: number | null; p95: number | null };
  first_token: { p50: number | null };
  tokens: { prompt: number; completion: number };
  quota: number;
  memory_rss_bytes: number;
}
