import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

export function useBatchTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; tag: string }) => api.post<number>('/api/channel/batch/tag', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
