import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { TagEdit } from '../types';
import { channelsQueryKey } from './use-channels';

/** Changes every channel under a tag at once; an empty new tag dissolves the tag. */
export function useEditTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: TagEdit) => api.put<number>('/api/channel/tag', edit),
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
