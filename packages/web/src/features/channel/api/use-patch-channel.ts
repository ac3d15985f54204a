import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Channel } from '../types';
import { channelsQueryKey } from './use-channels';

export type ChannelPatch = { id: number } & ({ status: number } | { priority: number } | { weight: number });

/** The list's inline edits: status, priority or weight of one channel. */
export function usePatchChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ChannelPatch) => api.put<Channel>('/api/channel/', patch),
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
