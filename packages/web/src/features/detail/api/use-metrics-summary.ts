import type { MetricsSummary } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** This node's live relay figures (root only), refreshed every 15 s while the dashboard is open. */
export function useMetricsSummary(enabled: boolean) {
  return useQuery({
    queryKey: ['metrics-summary'],
    queryFn: ({ signal }) => api.get<MetricsSummary>('/api/metrics/summary', { signal }),
    enabled,
    refetchInterval: 15_000,
  });
}
