import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Channel } from '../types';
import { channelsQueryKey } from './use-channels';

/** One channel for the edit form; the form shows its own "not found" state, so no toast. */
export function useChannel(id: number | undefined) {
  return useQuery({
    queryKey: [...channelsQueryKey, 'one', id],
    queryFn: () => api.get<Channel>(`/api/channel/${id}`),
    enabled: id !== undefined && Number.isInteger(id),
    staleTime: 0,
    meta: { silentError: true },
  });
}
