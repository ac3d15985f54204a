import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

/** Rebuilds the routing table (abilities) from the channels; answers how many channels succeeded and failed. */
export function useFixAbilities() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ success: number; fails: number }>('/api/channel/fix'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
