import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * What `amount` units of credit cost (`POST /api/user/amount`): Price × the user's group top-up ratio, as a string
 * with two decimals. Idle while `amount` is null (an invalid entry). The card shows a failure in place.
 */
export function usePayQuote(amount: number | null) {
  return useQuery({
    queryKey: ['wallet', 'quote', amount],
    queryFn: ({ signal }) => api.post<string>('/api/user/amount', { amount }, { signal }),
    enabled: amount !== null,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}
