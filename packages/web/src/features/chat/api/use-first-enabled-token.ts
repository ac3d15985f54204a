import type { Page, TokenView as Token } from '@gateway/shared';
import { TokenStatus } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The chat pages sign in with the caller's first enabled token among their first 100 (family behaviour). */
export function useFirstEnabledToken() {
  return useQuery({
    queryKey: ['tokens', 'first-enabled'],
    queryFn: async () => {
      const page = await api.get<Page<Token>>('/api/token/', { query: { p: 1, size: 100, shape: 'page' } });
      return page.items.find((token) => token.status === TokenStatus.Enabled) ?? null;
    },
    staleTime: 0,
  });
}
