import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { TopUpInfo } from '../types';

/** Whether online top-up is on, its minimum, the quick-pick amounts and their discounts (`GET /api/user/topup/info`). */
export function useTopUpInfo() {
  return useQuery({
    queryKey: ['wallet', 'topup-info'],
    queryFn: ({ signal }) => api.get<TopUpInfo>('/api/user/topup/info', { signal }),
    staleTime: 60_000,
    // The card shows the failure in place.
    meta: { silentError: true },
  });
}
