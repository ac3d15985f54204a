import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { ChannelPayload } from '../types';
import { channelsQueryKey } from './use-channels';

/** `batch` makes one channel per key line; `single` keeps every line as keys of one channel. Answers the new ids. */
export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { mode: 'batch' | 'single'; channel: ChannelPayload }) =>
      api.post<number[]>('/api/channel/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
