// `GET /api/pricing/health`: live model health on this gateway, for the pricing page.

/** One model over the last hour (every node summed when they share Redis). */
export interface ModelHealthView {
  /** Calls that ended (abandoned by their client: not counted). */
  requests: number;
  /** Share of those calls that succeeded; null without calls. */
  success_rate: number | null;
  /** Median time to the first token of streamed calls, in milliseconds; null when none streamed. */
  ttft_p50_ms: number | null;
  /** Completion tokens per second after the first token, over successful calls; null when unknown. */
  tokens_per_second: number | null;
}

export interface ModelHealthResponse {
  /** The window the figures cover. */
  window_seconds: number;
  models: Record<string, ModelHealthView>;
}
