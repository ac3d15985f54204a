import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { selfQueryKey } from '../../auth/api/use-self';

/** Redeems a code; answers the quota added. The balance is refetched, so the wallet shows the new figure. */
export function useRedeem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => api.post<number>('/api/user/topup', { key }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfQueryKey }),
  });
}
