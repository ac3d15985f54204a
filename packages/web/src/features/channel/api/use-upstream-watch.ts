import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Channel } from '../types';
import { channelsQueryKey } from './use-channels';

/** The upstream model watch of one channel: turn it on or off, check now, act on what was found. */
export function useUpstreamWatch(channelId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: channelsQueryKey });
  const base = `/api/channel/${channelId}/upstream_models`;
  return {
    setWatch: useMutation({
      mutationFn: (body: { check_enabled: boolean; auto_sync: boolean }) => api.put<Channel>(`${base}/watch`, body),
      onSuccess: refresh,
    }),
    check: useMutation({ mutationFn: () => api.post<Channel>(`${base}/check`, {}), onSuccess: refresh }),
    apply: useMutation({
      mutationFn: (body: { add?: string[]; remove?: string[]; ignore?: string[] }) =>
        api.post<Channel>(`${base}/apply`, body),
      onSuccess: refresh,
    }),
  };
}
