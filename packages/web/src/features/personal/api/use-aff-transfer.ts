import { useMutation, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../../hooks/use-self';
import { api } from '../../../lib/api';

/** Moves invitation quota to the balance (`POST /api/user/aff_transfer`). */
export function useAffTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quota: number) => api.post<unknown>('/api/user/aff_transfer', { quota }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfQueryKey }),
  });
}
