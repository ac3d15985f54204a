import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

/** Deletes every disabled channel (by hand or automatically); answers the count. */
export function useDeleteDisabledChannels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<number>('/api/channel/disabled'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
