import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

/** Duplicates a channel (key included, server-side); answers the copy's id. */
export function useCopyChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ id: number }>(`/api/channel/copy/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
