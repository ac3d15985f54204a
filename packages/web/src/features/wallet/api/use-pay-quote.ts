import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Where each way of paying quotes: epay at `Price`, Stripe at `StripeUnitPrice` (both × group ratio × discount). */
const QUOTE_PATHS = { epay: '/api/user/amount', stripe: '/api/user/stripe/amount' } as const;

/**
 * What `amount` units of credit cost, as a string with two decimals. Idle while `amount` is null (an invalid
 * entry) or the provider is off. The card shows a failure in place.
 */
export function usePayQuote(amount: number | null, provider: keyof typeof QUOTE_PATHS = 'epay', enabled = true) {
  return useQuery({
    queryKey: ['wallet', 'quote', provider, amount],
    queryFn: ({ signal }) => api.post<string>(QUOTE_PATHS[provider], { amount }, { signal }),
    enabled: enabled && amount !== null,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}
