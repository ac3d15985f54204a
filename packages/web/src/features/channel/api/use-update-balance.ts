import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

/** Asks the upstream for one channel's balance (top-level `balance`, also in data). */
export function useUpdateBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number): Promise<number> => {
      const envelope = await requestEnvelope<{ balance?: number }>('GET', `/api/channel/update_balance/${id}`);
      return (envelope as { balance?: number }).balance ?? envelope.data?.balance ?? 0;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
