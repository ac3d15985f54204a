import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from './use-channels';

/** Enables or disables every channel under a tag. */
export function useSetTagStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tag, enabled }: { tag: string; enabled: boolean }) =>
      api.post<number>(enabled ? '/api/channel/tag/enabled' : '/api/channel/tag/disabled', { tag }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
