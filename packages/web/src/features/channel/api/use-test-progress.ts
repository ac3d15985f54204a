import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { TestAllProgress } from '../types';

export const TEST_PROGRESS_POLL_MS = 1000;

/** Progress of "test all", polled every second while a run is going. */
export function useTestProgress(enabled: boolean) {
  return useQuery({
    queryKey: ['channels', 'test-progress'],
    queryFn: () => api.get<TestAllProgress>('/api/channel/test/progress'),
    enabled,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.running === false ? false : TEST_PROGRESS_POLL_MS),
  });
}
