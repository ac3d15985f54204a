import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { tokensQueryKey } from './use-tokens';

/** Bulk delete; answers how many were deleted. */
export function useDeleteTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.post<number>('/api/token/batch', { ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
