import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Redemption } from '../types';
import { redemptionsQueryKey } from './use-redemptions';

/** The stored code behind an edit form; the list row seeds it so the form opens without waiting. */
export function useRedemption(id: number | undefined, row?: Redemption) {
  return useQuery({
    queryKey: [...redemptionsQueryKey, 'one', id],
    queryFn: () => api.get<Redemption>(`/api/redemption/${id}`),
    enabled: id !== undefined,
    placeholderData: row,
    staleTime: 0,
  });
}
