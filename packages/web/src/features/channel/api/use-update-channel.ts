import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Channel, ChannelPayload } from '../types';
import { channelsQueryKey } from './use-channels';

/** Full edit; an empty key keeps the stored one. */
export function useUpdateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChannelPayload & { id: number }) => api.put<Channel>('/api/channel/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
