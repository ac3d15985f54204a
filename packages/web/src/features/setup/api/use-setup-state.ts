import type { SetupState } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export function useSetupState() {
  return useQuery({
    queryKey: ['setup'],
    queryFn: () => api.get<SetupState>('/api/setup'),
    staleTime: 0,
    // The page replaces itself with an error state and a retry button.
    meta: { silentError: true },
  });
}
