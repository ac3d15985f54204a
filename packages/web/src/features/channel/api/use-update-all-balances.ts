import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

export function useUpdateAllBalances() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<{ updated: number; total: number }>('/api/channel/update_balance'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
