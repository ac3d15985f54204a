import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Token } from '../types';
import { tokensQueryKey } from './use-tokens';

/** The stored token behind an edit form; the list row seeds it so the form opens without waiting. */
export function useToken(id: number | undefined, row?: Token) {
  return useQuery({
    queryKey: [...tokensQueryKey, 'one', id],
    queryFn: () => api.get<Token>(`/api/token/${id}`),
    enabled: id !== undefined,
    placeholderData: row,
    staleTime: 0,
  });
}
