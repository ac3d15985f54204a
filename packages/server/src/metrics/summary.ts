import type { MetricsSummary } from '@gateway/shared';
import type { AppContext } from '../context.js';

/**
 * A quantile read off histogram buckets the way Prometheus' histogram_quantile does: linear inside the bucket that
 * holds it; the open top bucket answers its lower bound (nothing better is known). Null without observations.
 */
export function bucketQuantile(bounds: readonly number[], counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let index = 0; index < counts.length; index++) {
    const count = counts[index]!;
    if (count > 0 && below + count >= rank) {
      if (index === bounds.length) return bounds[bounds.length - 1] ?? null;
      const lower = index === 0 ? 0 : bounds[index - 1]!;
      return lower + (bounds[index]! - lower) * ((rank - below) / count);
    }
    below += count;
  }
  return bounds[bounds.length - 1] ?? null;
}

export function metricsSummary(ctx: AppContext): MetricsSummary {
  const relay = ctx.metrics.relay;
  const { outcomes, retries, upstreamErrors, promptTokens, completionTokens, quota } = relay.totals;
  const duration = relay.duration.merged();
  const firstToken = relay.firstToken.merged();
  return {
    node: ctx.config.nodeName,
    started_at: ctx.startTime,
    requests: { success: outcomes[0]!, error: outcomes[1]!, cancelled: outcomes[2]! },
    retries,
    upstream_errors: upstreamErrors,
    latency: {
      p50: bucketQuantile(duration.bounds, duration.counts, 0.5),
      p95: bucketQuantile(duration.bounds, duration.counts, 0.95),
    },
    first_token: { p50: bucketQuantile(firstToken.bounds, firstToken.counts, 0.5) },
    tokens: { prompt: promptTokens, completion: completionTokens },
    quota,
    memory_rss_bytes: process.memoryUsage.rss(),
  };
}
