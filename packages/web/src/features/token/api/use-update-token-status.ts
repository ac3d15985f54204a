import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Token } from '../types';
import { tokensQueryKey } from './use-tokens';

/** Enable (1) or disable (2). The server refuses to enable an expired or exhausted token and says why. */
export function useUpdateTokenStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: number }) =>
      api.put<Token>('/api/token/', { id, status }, { query: { status_only: true } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
