import { canChat } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * Model names the caller can reach (same cache entry as the token form's), narrowed to the ones that chat: an
 * embedding, speech or image model offered in a chat box can only fail.
 */
export function usePlaygroundModels() {
  return useQuery({
    queryKey: ['user', 'models'],
    queryFn: () => api.get<string[]>('/api/user/models'),
    staleTime: 5 * 60_000,
    select: (models) => models.filter(canChat),
  });
}
