import { canChat } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { usePricedModels } from '../../../hooks/use-priced-models';
import { api } from '../../../lib/api';

export interface PlaygroundModels {
  /** Models that chat and have a price: the ones a message can be sent to. */
  data: string[] | undefined;
  /** Models that chat but have no price: shown disabled, with the reason. */
  unpriced: string[];
  isPending: boolean;
}

/**
 * Model names the caller can reach (same cache entry as the token form's), narrowed to the ones that chat (an
 * embedding, speech or image model offered in a chat box can only fail) and split by whether they have a price.
 */
export function usePlaygroundModels(): PlaygroundModels {
  const models = useQuery({
    queryKey: ['user', 'models'],
    queryFn: () => api.get<string[]>('/api/user/models'),
    staleTime: 5 * 60_000,
    select: (models) => models.filter(canChat),
  });
  const { priced, isPending } = usePricedModels();
  const chat = models.data;
  return {
    data: chat && (priced ? chat.filter((model) => priced.has(model)) : chat),
    unpriced: chat && priced ? chat.filter((model) => !priced.has(model)) : [],
    isPending: models.isPending || isPending,
  };
}
