import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Model names offered by enabled channels (`GET /api/channel/models_enabled`). */
export function useEnabledModels() {
  return useQuery({
    queryKey: ['channels', 'models_enabled'],
    queryFn: ({ signal }) => api.get<string[]>('/api/channel/models_enabled', { signal }),
  });
}
