import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

/** Batch delete by ids; answers how many went. */
export function useDeleteChannels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.post<number>('/api/channel/batch', { ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
