import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Redemption } from '../types';
import { redemptionsQueryKey } from './use-redemptions';

/** Enable (1) or disable (2). The server refuses to enable a used code and says why. */
export function useUpdateRedemptionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: number }) =>
      api.put<Redemption>('/api/redemption/', { id, status }, { query: { status_only: true } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: redemptionsQueryKey }),
  });
}
