import type { ModelHealthResponse } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The gateway's last hour per model (GET /api/pricing/health), refreshed every minute while the page is open. */
export function useModelHealth() {
  return useQuery({
    queryKey: ['pricing-health'],
    queryFn: ({ signal }) => api.get<ModelHealthResponse>('/api/pricing/health', { signal }),
    refetchInterval: 60_000,
    meta: { silentError: true },
  });
}
