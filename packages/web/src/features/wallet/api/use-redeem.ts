import { useMutation, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../../hooks/use-self';
import { api } from '../../../lib/api';
import { topUpHistoryKey } from './use-topup-history';

/** Redeems a code; answers the quota added. Balance and history are refetched, so the wallet shows the new figures. */
export function useRedeem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => api.post<number>('/api/user/topup', { key }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: selfQueryKey }),
        queryClient.invalidateQueries({ queryKey: topUpHistoryKey }),
      ]),
  });
}
